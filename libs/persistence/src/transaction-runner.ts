import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { OutboxRelay } from './outbox/outbox-relay';

/**
 * The one way to run a unit of work: state changes and their outbox events commit together,
 * then the relay is nudged to publish. Never call another service inside `work`.
 */
@Injectable()
export class TransactionRunner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly relay: OutboxRelay,
  ) {}

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.dataSource.transaction(work);
    this.relay.kick();
    return result;
  }

  /**
   * A unit of work that is one statement (state change and event together, see
   * `Outbox.addManyWithInserts`): atomic on its own, so without the BEGIN and COMMIT round trips.
   */
  async runStatement<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const result = await work(this.dataSource.manager);
    this.relay.kick();
    return result;
  }
}
