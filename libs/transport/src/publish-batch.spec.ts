import { PublishBatch } from './nats.transport';

describe('PublishBatch', () => {
  it('sends the publishes of one event-loop turn together, in order, after the turn', async () => {
    const batch = new PublishBatch();
    const sent: string[] = [];
    batch.add(() => sent.push('first'));
    batch.add(() => sent.push('second'));
    await Promise.resolve();
    expect(sent).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['first', 'second']);
  });

  it('starts a new batch for publishes made after a flush', async () => {
    const batch = new PublishBatch();
    const sent: string[] = [];
    batch.add(() => sent.push('a'));
    await new Promise((resolve) => setImmediate(resolve));
    batch.add(() => sent.push('b'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['a', 'b']);
  });
});
