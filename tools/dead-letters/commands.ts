import { DataSource } from 'typeorm';
import { DeadLetterEntity, deadLetterQueries } from '@paykit/persistence';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const USAGE = 'usage: npm run dead-letters -- list [--service <name>] | show <id> | replay <id>\n';

/** Where a parked message stands. */
function stateOf(letter: DeadLetterEntity): string {
  if (letter.replayRequestedAt) return 'replay requested';
  if (letter.replayedAt) return `replayed ${letter.replayedAt.toISOString()}`;
  return 'parked';
}

async function locate(databases: Map<string, DataSource>, id: string): Promise<{ service: string; dataSource: DataSource; letter: DeadLetterEntity }> {
  if (!UUID.test(id)) throw new Error(`${id} is not a dead letter id (a UUID, as \`list\` shows)`);
  for (const [service, dataSource] of databases) {
    const letter = await deadLetterQueries.find(dataSource, id);
    if (letter) return { service, dataSource, letter };
  }
  throw new Error(`no dead letter ${id} in ${[...databases.keys()].join(', ')}`);
}

/**
 * The dead-letter commands over the service databases given (by service name). `list` prints no
 * payload (it may hold personal data); `show` prints one message whole for an operator; `replay`
 * asks the owning service to re-publish or re-queue it once (it does so within a second when
 * running; an embedded stack at its next start).
 */
export async function deadLetterCommand(args: string[], databases: Map<string, DataSource>, write: (text: string) => void): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'list': {
      const index = rest.indexOf('--service');
      const only = index >= 0 ? rest[index + 1] : undefined;
      if (only !== undefined && !databases.has(only)) throw new Error(`--service must be one of ${[...databases.keys()].join(', ')}`);
      let count = 0;
      for (const [service, dataSource] of databases) {
        if (only && service !== only) continue;
        for (const letter of await deadLetterQueries.list(dataSource)) {
          count += 1;
          write(
            `${letter.id}  ${service}  ${letter.source}  ${letter.consumer}  ${letter.subject}  message ${letter.messageId}  ` +
              `${letter.platformId ?? '-'}  attempts ${letter.attempts}  last failed ${letter.lastFailedAt.toISOString()}  ${stateOf(letter)}\n`,
          );
        }
      }
      if (count === 0) write('no dead letters\n');
      return 0;
    }
    case 'show': {
      const { service, letter } = await locate(databases, rest[0] ?? '');
      write(`${JSON.stringify({ service, ...letter, state: stateOf(letter) }, null, 2)}\n`);
      return 0;
    }
    case 'replay': {
      const { service, dataSource, letter } = await locate(databases, rest[0] ?? '');
      await deadLetterQueries.requestReplay(dataSource, letter.id);
      write(
        `replay of ${letter.id} (${letter.source} message ${letter.messageId}) requested from ${service}; it runs once, when ${service} next polls (within a second while it runs)\n`,
      );
      return 0;
    }
    default:
      write(USAGE);
      return command ? 1 : 0;
  }
}
