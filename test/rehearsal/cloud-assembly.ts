import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** One resource of a CloudFormation template, as CDK writes it. */
export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}

/** A synthesized stack: its template, its deployed name and its file assets (hash → local path). */
export interface SynthesizedStack {
  /** The construct id in the app (`MeridianService`). */
  id: string;
  /** The CloudFormation stack name (`meridian-prod-service`). */
  stackName: string;
  resources: Record<string, TemplateResource>;
  outputs: Record<string, { Value: unknown; Export?: { Name: unknown } }>;
  /** Where the asset a template names by object key (`<hash>.zip`, `<hash>.json`) lies in cdk.out. */
  assetPath(objectKey: string): string;
}

/** The cloud assembly `cdk synth` wrote: every stack of the app. */
export interface CloudAssembly {
  directory: string;
  stacks: SynthesizedStack[];
}

interface Manifest {
  artifacts: Record<
    string,
    { type: string; properties?: { templateFile?: string; stackName?: string; file?: string } }
  >;
}

interface AssetManifest {
  files: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }>;
}

/**
 * Runs `cdk synth` as `npm run synth` does (the CLI, cdk.json's app and context, assets bundled)
 * into a fresh folder, so the rehearsal runs what `cdk deploy` would upload, built from this
 * checkout rather than from a stale cdk.out.
 */
export async function synthesizeApp(): Promise<CloudAssembly> {
  const directory = await mkdtemp(join(tmpdir(), 'meridian-rehearsal-cdk-'));
  await promisify(execFile)(
    process.execPath,
    ['node_modules/aws-cdk/bin/cdk', 'synth', '--quiet', '--no-notices', '--output', directory],
    { env: { ...process.env, CDK_DISABLE_VERSION_CHECK: 'true' }, timeout: 300_000, maxBuffer: 16 << 20 },
  );
  return readCloudAssembly(directory);
}

/** The stacks of a cloud assembly folder (a cdk.out). */
export async function readCloudAssembly(folder: string): Promise<CloudAssembly> {
  const directory = resolve(folder);
  const read = async <T>(file: string) => JSON.parse(await readFile(join(directory, file), 'utf8')) as T;
  const manifest = await read<Manifest>('manifest.json');
  const stacks: SynthesizedStack[] = [];
  for (const [id, artifact] of Object.entries(manifest.artifacts)) {
    if (artifact.type !== 'aws:cloudformation:stack') continue;
    const template = await read<{
      Resources: SynthesizedStack['resources'];
      Outputs?: SynthesizedStack['outputs'];
    }>(artifact.properties!.templateFile!);
    const assets = await read<AssetManifest>(`${id}.assets.json`);
    const byObjectKey = new Map(
      Object.values(assets.files).flatMap((file) =>
        Object.values(file.destinations).map((destination) => [destination.objectKey, file.source.path]),
      ),
    );
    stacks.push({
      id,
      stackName: artifact.properties?.stackName ?? id,
      resources: template.Resources,
      outputs: template.Outputs ?? {},
      assetPath: (objectKey) => {
        const path = byObjectKey.get(objectKey);
        if (path === undefined)
          throw new Error(`${id}: no asset is published under the object key ${objectKey}`);
        return join(directory, path);
      },
    });
  }
  return { directory, stacks };
}

/** The resources of one type across the assembly, with their stack and logical id. */
export function resourcesOfType(assembly: CloudAssembly, type: string) {
  return assembly.stacks.flatMap((stack) =>
    Object.entries(stack.resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([logicalId, resource]) => ({
        stack,
        logicalId,
        resource,
        properties: resource.Properties ?? {},
      })),
  );
}
