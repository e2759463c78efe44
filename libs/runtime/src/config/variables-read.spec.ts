import { EnvReader, loadRuntimeConfig, variablesRead } from './runtime-config';

describe(variablesRead.name, () => {
  it('names every variable an EnvReader was asked for, including by a loader that refused its settings', () => {
    const names = variablesRead(() => loadRuntimeConfig({}, 'distributed', ['cards']));
    expect(names).toEqual(
      expect.arrayContaining(['DEPLOYMENT_ENV', 'NATS_URL', 'NATS_NAMESPACE', 'LOG_LEVEL', 'SANDBOX_TIME_SCALE', 'RPC_TIMEOUT_MS', 'HEALTH_PORT', 'CARDS_DATABASE_URL']),
    );
    // Embedded-mode settings are not asked for by a distributed process.
    expect(names).not.toContain('DATA_DIR');
  });

  it('passes names read in a nested call on to the outer one, and records nothing outside a call', () => {
    const outer = variablesRead(() => {
      new EnvReader({}).optional('A');
      expect(variablesRead(() => new EnvReader({}).number('B', 1))).toEqual(['B']);
    });
    expect(outer.sort()).toEqual(['A', 'B']);
    new EnvReader({}).optional('C');
    expect(variablesRead(() => undefined)).toEqual([]);
  });

  it('lets other errors through', () => {
    expect(() =>
      variablesRead(() => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });
});
