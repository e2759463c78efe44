import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ContactChannel } from '@paykit/contracts';
import { ContactCodeEntity } from './entities/contact-code.entity';

/** At most one live code per customer and channel (the row's key); a new code replaces the last one. */
@Injectable()
export class ContactCodesRepository {
  find(manager: EntityManager, customerId: string, channel: ContactChannel): Promise<ContactCodeEntity | null> {
    return manager.findOne(ContactCodeEntity, { where: { customerId, channel } });
  }

  /** Locks the code for the rest of the transaction: concurrent guesses are counted one by one. */
  findForUpdate(manager: EntityManager, customerId: string, channel: ContactChannel): Promise<ContactCodeEntity | null> {
    return manager.findOne(ContactCodeEntity, { where: { customerId, channel }, lock: { mode: 'pessimistic_write' } });
  }

  async save(manager: EntityManager, code: ContactCodeEntity): Promise<void> {
    await manager.save(ContactCodeEntity, code);
  }

  async countFailedAttempt(manager: EntityManager, customerId: string, channel: ContactChannel): Promise<void> {
    await manager.increment(ContactCodeEntity, { customerId, channel }, 'failedAttempts', 1);
  }

  async delete(manager: EntityManager, customerId: string, channel: ContactChannel): Promise<void> {
    await manager.delete(ContactCodeEntity, { customerId, channel });
  }
}
