import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CustomerEntity } from './entities/customer.entity';

/** Every query takes the platform first: another platform's customer does not exist here. */
@Injectable()
export class CustomersRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<CustomerEntity | null> {
    return manager.findOne(CustomerEntity, { where: { platformId, id } });
  }

  async insert(manager: EntityManager, customer: CustomerEntity): Promise<void> {
    await manager.insert(CustomerEntity, customer);
  }
}
