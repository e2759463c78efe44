/** How long a process trusts what it read of a platform's flag (another replica's change shows within this). */
export const PLATFORM_FLAG_STALENESS_MS = 1_000;

/**
 * Whether a platform has something switched on (a sandbox fault, say), read from the database at
 * most once per PLATFORM_FLAG_STALENESS_MS per platform, so the hot path of every other platform
 * costs a map lookup and no statement. The replica that switches a flag on knows at once (`set`);
 * the others within the staleness window, like platform clock offsets.
 */
export class PlatformFlags {
  private readonly known = new Map<string, { on: boolean; readAt: number }>();
  private readonly reading = new Map<string, Promise<boolean>>();

  constructor(private readonly read: (platformId: string) => Promise<boolean>) {}

  async isOn(platformId: string): Promise<boolean> {
    const cached = this.known.get(platformId);
    if (cached && Date.now() - cached.readAt < PLATFORM_FLAG_STALENESS_MS) return cached.on;
    let pending = this.reading.get(platformId);
    if (!pending) {
      pending = this.read(platformId).finally(() => this.reading.delete(platformId));
      this.reading.set(platformId, pending);
    }
    const on = await pending;
    this.set(platformId, on);
    return on;
  }

  set(platformId: string, on: boolean): void {
    this.known.set(platformId, { on, readAt: Date.now() });
  }
}
