import { Client } from 'pg';
import { connect } from 'nats';
import { databaseUrlVariable } from '@paykit/runtime';
import { BenchFigure } from './bench-types';
import { cpuSnapshot, waitForQuiet } from './processes';

const ROUND_TRIPS = 5_000;
const WARM_UP = 500;
/** About what a service's request or reply weighs on the bus. */
const MESSAGE_BYTES = 512;

/**
 * The floor under every figure of a path that crosses processes: the CPU one PostgreSQL statement
 * and one NATS request/reply cost on this machine with nothing else in them (`SELECT 1`, an echo),
 * both ends counted, measured in the same run as the path. A payment's statements and service
 * calls times these is what it costs before any of its own work.
 */
export async function roundTripReferences(env: Record<string, string>): Promise<BenchFigure[]> {
  await waitForQuiet();
  const figures: BenchFigure[] = [];

  const database = new Client({ connectionString: env[databaseUrlVariable('payments')] });
  await database.connect();
  try {
    const statement = await measured('postgresql', () => database.query('SELECT 1').then(() => undefined));
    figures.push({
      scenario: 'reference: PostgreSQL round trip',
      metric: 'CPU per SELECT 1',
      value: statement.totalUs,
      unit: `us (node client ${statement.clientUs}, postgresql ${statement.serverUs})`,
    });
  } finally {
    await database.end();
  }

  const bus = await connect({ servers: env.NATS_URL });
  try {
    const subject = `${env.NATS_NAMESPACE ?? 'bench'}.bench.echo`;
    bus.subscribe(subject, { callback: (_error, message) => message.respond(message.data) });
    const payload = new Uint8Array(MESSAGE_BYTES);
    const call = await measured('nats', () => bus.request(subject, payload, { timeout: 5_000 }).then(() => undefined));
    figures.push({
      scenario: 'reference: NATS request/reply',
      metric: 'CPU per round trip',
      value: call.totalUs,
      unit: `us (requester and responder ${call.clientUs}, nats ${call.serverUs}; ${MESSAGE_BYTES}-byte messages)`,
    });
  } finally {
    await bus.close();
  }
  return figures;
}

/** Runs `roundTrip` one after another, after a warm-up: the CPU per round trip of this process and of the server's processes (`server` as cpuSnapshot names them). */
async function measured(server: string, roundTrip: () => Promise<void>): Promise<{ totalUs: number; clientUs: number; serverUs: number }> {
  for (let i = 0; i < WARM_UP; i++) await roundTrip();
  const serverBefore = cpuSnapshot().get(server) ?? 0;
  const clientBefore = process.cpuUsage();
  for (let i = 0; i < ROUND_TRIPS; i++) await roundTrip();
  const client = process.cpuUsage(clientBefore);
  const serverUs = Math.round((((cpuSnapshot().get(server) ?? 0) - serverBefore) * 1000) / ROUND_TRIPS);
  const clientUs = Math.round((client.user + client.system) / ROUND_TRIPS);
  return { totalUs: clientUs + serverUs, clientUs, serverUs };
}
