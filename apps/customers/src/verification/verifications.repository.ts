import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { VerificationEntity } from './entities/verification.entity';

/** Verifications are a record of each run: written once, never changed. */
@Injectable()
export class VerificationsRepository {
  async insert(manager: EntityManager, verification: VerificationEntity): Promise<void> {
    await manager.insert(VerificationEntity, verification);
  }
}
