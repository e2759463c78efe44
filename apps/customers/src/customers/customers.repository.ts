import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CustomerType, KycStatus } from '@paykit/contracts';
import { EntityInsert, EntityReader } from '@paykit/persistence';
import { CustomerEntity } from './entities/customer.entity';

export interface CustomerFilter {
  customerType?: CustomerType;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
  platformCustomerId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  region?: string;
  /** Customers whose `currencies` include it. */
  currency?: string;
  umaAddress?: string;
  /** Deleted customers are left out unless asked for. */
  includeDeleted?: boolean;
  /** Only ids older than this one (cursor pagination, newest first). */
  beforeId?: string;
}

/** Every query takes the platform first: another platform's customer does not exist here. */
@Injectable()
export class CustomersRepository {
  /** The read behind every GET and every customer check other services make: the hottest query here. */
  private readonly byId: EntityReader<CustomerEntity>;

  /** The INSERT of customers with their creation events, one statement per batch (`Outbox.addManyWithInserts`). */
  readonly newRow: EntityInsert<CustomerEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.byId = new EntityReader(dataSource, CustomerEntity, ['platformId', 'id']);
    this.newRow = new EntityInsert(dataSource, CustomerEntity);
  }

  /** Outside a transaction: concurrent reads share a statement. */
  findById(platformId: string, id: string): Promise<CustomerEntity | null> {
    return this.byId.findOneBatched([platformId, id]);
  }

  /** Locks the row for the rest of the transaction: status transitions never interleave. */
  findByIdForUpdate(manager: EntityManager, platformId: string, id: string): Promise<CustomerEntity | null> {
    return this.byId.findOneForUpdate(manager, [platformId, id]);
  }

  /** A page of the filter, newest first, and how many customers match it on all pages. */
  async list(platformId: string, filter: CustomerFilter, limit: number): Promise<{ rows: CustomerEntity[]; totalCount: number }> {
    const query = this.dataSource.manager.createQueryBuilder(CustomerEntity, 'c').where('c.platform_id = :platformId', { platformId });
    if (filter.customerType) query.andWhere('c.customer_type = :customerType', { customerType: filter.customerType });
    if (filter.kycStatus) query.andWhere('c.kyc_status = :kycStatus', { kycStatus: filter.kycStatus });
    if (filter.kybStatus) query.andWhere('c.kyb_status = :kybStatus', { kybStatus: filter.kybStatus });
    if (filter.platformCustomerId) query.andWhere('c.platform_customer_id = :pcid', { pcid: filter.platformCustomerId });
    if (filter.createdAfter) query.andWhere('c.created_at >= :after', { after: filter.createdAfter });
    if (filter.createdBefore) query.andWhere('c.created_at < :before', { before: filter.createdBefore });
    if (filter.updatedAfter) query.andWhere('c.updated_at >= :updatedAfter', { updatedAfter: filter.updatedAfter });
    if (filter.updatedBefore) query.andWhere('c.updated_at < :updatedBefore', { updatedBefore: filter.updatedBefore });
    if (filter.region) query.andWhere('c.region = :region', { region: filter.region });
    if (filter.currency) query.andWhere('c.currencies @> CAST(:currency AS jsonb)', { currency: JSON.stringify([filter.currency]) });
    if (filter.umaAddress) query.andWhere('c.uma_address = :uma', { uma: filter.umaAddress });
    if (!filter.includeDeleted) query.andWhere('c.deleted_at IS NULL');
    const page = query.clone();
    if (filter.beforeId) page.andWhere('c.id < :beforeId', { beforeId: filter.beforeId });
    const [rows, totalCount] = await Promise.all([page.orderBy('c.id', 'DESC').limit(limit).getMany(), query.getCount()]);
    return { rows, totalCount };
  }

  /**
   * One statement for a whole batch (bulk import). The entities travel as one JSON document that
   * PostgreSQL expands into rows (keys are the property names, each declared with its column's
   * type): building a statement with a placeholder per value costs more than the insert itself.
   */
  async insertMany(manager: EntityManager, customers: CustomerEntity[]): Promise<void> {
    if (customers.length === 0) return;
    const { columns } = manager.connection.getMetadata(CustomerEntity);
    const driver = manager.connection.driver;
    const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
    const properties = columns.map((column) => driver.escape(column.propertyName)).join(', ');
    const types = columns.map((column) => `${driver.escape(column.propertyName)} ${driver.normalizeType(column)}`).join(', ');
    await manager.query(`INSERT INTO customer (${names}) SELECT ${properties} FROM jsonb_to_recordset($1::jsonb) AS batch(${types})`, [JSON.stringify(customers)]);
  }

  /** Which of these UMA addresses customers of the platform already have. */
  async takenUmaAddresses(platformId: string, addresses: string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const rows = await this.dataSource.query<Array<{ uma_address: string }>>('SELECT uma_address FROM customer WHERE platform_id = $1 AND uma_address = ANY($2)', [
      platformId,
      addresses,
    ]);
    return new Set(rows.map((row) => row.uma_address));
  }

  async save(manager: EntityManager, customer: CustomerEntity): Promise<void> {
    await manager.save(CustomerEntity, customer);
  }
}
