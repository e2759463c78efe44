import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The deployment's one stored enclave key (a single row: the key is not per platform). */
const ENCLAVE_KEY_ROW = 'primary';

@Injectable()
export class EnclaveKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The stored key, storing `candidateHex` first when there is none: racing replicas all read the first insert's key. */
  async storedOrInsert(candidateHex: string): Promise<string> {
    await this.dataSource.query(`INSERT INTO enclave_key (id, private_key_hex) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [ENCLAVE_KEY_ROW, candidateHex]);
    const rows = await this.dataSource.query<Array<{ private_key_hex: string }>>(`SELECT private_key_hex FROM enclave_key WHERE id = $1`, [ENCLAVE_KEY_ROW]);
    return rows[0].private_key_hex;
  }
}
