import { Readable, Transform, TransformCallback } from 'node:stream';
import { parse } from 'csv-parse';
import { BULK_CSV_MAX_BYTES, BULK_ROWS_PER_BATCH, BulkImportJob, BulkRowsProcessed, CallerContext, CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { ServiceClient } from '@paykit/transport';

/** Refuses bytes that are not UTF-8 instead of replacing them (a wrong encoding is a malformed file). */
class Utf8Decoder extends Transform {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor() {
    super({ decodeStrings: true, readableObjectMode: false });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      done(null, this.decoder.decode(chunk, { stream: true }));
    } catch {
      done(new MalformedFile('The file is not valid UTF-8'));
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      done(null, this.decoder.decode());
    } catch {
      done(new MalformedFile('The file is not valid UTF-8'));
    }
  }
}

class MalformedFile extends Error {}

function describeFailure(error: unknown, row: number): string {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return `The file is larger than the ${BULK_CSV_MAX_BYTES / 1024 / 1024} MB limit`;
  if (error instanceof MalformedFile) return error.message;
  if (typeof code === 'string' && code.startsWith('CSV_')) return `Invalid CSV after row ${row}: ${(error as Error).message}`;
  return `The upload could not be read: ${(error as Error).message}`;
}

/**
 * Batches the customers service works on at once: one is validated while the previous one is
 * being written, so neither the service nor its database waits for the other.
 */
const BATCHES_IN_FLIGHT = 2;
/**
 * A batch is hundreds of rows of work, not one request's: on a busy machine it may well outlast
 * the RPC timeout meant for single requests, and giving up on it would fail the whole import.
 */
const BATCH_TIMEOUT_MS = 60_000;

/**
 * Streams an uploaded CSV into a bulk import job: the file is decoded and parsed as it arrives
 * and sent to the customers service in batches of rows, a few batches in flight while the next
 * is parsed (never the whole file in memory). Rows are validated by the service; a malformed file
 * (broken quoting, not UTF-8, too large, unusable header) fails the job with the reason.
 */
export async function importCustomersCsv(services: ServiceClient, caller: CallerContext, fileName: string | undefined, file: Readable): Promise<BulkImportJob> {
  // The upload may fail (a body cut short) while the job is being started: kept, not lost.
  let uploadError: Error | undefined;
  const keepUploadError = (error: Error) => (uploadError ??= error);
  file.on('error', keepUploadError);
  const job = await services.request(CUSTOMERS_SUBJECTS.startBulkImport, { fileName }, caller);
  let columns: string[] | undefined;
  let batch: string[][] = [];
  let row = 0;
  /** Oldest first; each is awaited in this order. */
  const inFlight: Array<Promise<BulkRowsProcessed>> = [];
  let batchesSent = 0;
  let failure: string | undefined;
  let stopped = false;

  /** Waits for the oldest batch in flight; false when it failed the job (an unusable header). */
  const settleOldest = async (): Promise<boolean> => !(await inFlight.shift()!).jobFailed;

  /** Sends the records just read: the last of them is the current row. */
  const send = async (rows: string[][]): Promise<void> => {
    const firstRow = row - rows.length + 1;
    // The first batch goes alone: it checks the header, which every later batch repeats.
    const limit = batchesSent === 1 ? 1 : BATCHES_IN_FLIGHT;
    while (inFlight.length >= limit) {
      if (!(await settleOldest())) {
        stopped = true;
        return;
      }
    }
    const reply = services.request(CUSTOMERS_SUBJECTS.appendBulkImportRows, { jobId: job.id, columns: columns!, firstRow, rows }, caller, { timeoutMs: BATCH_TIMEOUT_MS });
    // Awaited later, in order: a failure before then must not count as an unhandled rejection.
    reply.catch(() => undefined);
    inFlight.push(reply);
    batchesSent += 1;
  };

  const decoder = new Utf8Decoder();
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  file.pipe(decoder).pipe(parser);
  // pipe() does not forward errors: a failing upload or decoder ends the parse with its error.
  file.once('error', (error) => parser.destroy(error));
  decoder.once('error', (error) => parser.destroy(error));
  file.off('error', keepUploadError);
  // Failed before the pipe was set up: it will emit nothing more, so the parse ends here.
  const earlier = uploadError ?? file.errored;
  if (earlier) parser.destroy(earlier);
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row += 1;
      if (!columns) {
        columns = record.map((cell) => cell.trim());
        continue;
      }
      batch.push(record);
      if (batch.length >= BULK_ROWS_PER_BATCH) {
        await send(batch);
        batch = [];
        if (stopped) break;
      }
    }
    if (!stopped && !columns) failure = 'The file is empty: a header row is required';
    if (!stopped && columns) {
      // A header without data rows still gets its columns checked.
      await send(batch);
    }
    while (inFlight.length > 0) {
      if (!(await settleOldest())) stopped = true;
    }
  } catch (error) {
    await Promise.allSettled(inFlight);
    failure = describeFailure(error, row);
  } finally {
    // Whatever was not read is drained, so the request completes and the answer goes out.
    file.unpipe();
    decoder.destroy();
    file.resume();
  }
  if (stopped) return services.request(CUSTOMERS_SUBJECTS.getBulkImport, { jobId: job.id }, caller);
  return services.request(CUSTOMERS_SUBJECTS.finishBulkImport, { jobId: job.id, ...(failure ? { failure } : {}) }, caller);
}
