import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resourcesOfType, type SynthesizedStack } from './cloud-assembly.js';
import type { DeployedNames } from './intrinsics.js';
import type { LocalLambda } from './local-lambda.js';
import type { SentCall } from './recording-proxy.js';
import { roleOf } from './rehearsal.js';

/**
 * Least privilege, checked on the synthesized template: for each function's role, what its bundle
 * can send (the AWS SDK commands constructed in the source files its source maps list, the KMS
 * keyring of the Encryption SDK when bundled), what AWS needs of the caller for those calls (KMS
 * on an SSE-KMS bucket or table key; the Lambda service writing the function's logs), and what the
 * rehearsal saw it send; against what the role's policies allow.
 */

/** One thing a role must be allowed, and why. */
export interface Need {
  action: string;
  resource: string;
  why: string;
}

/** One action pattern on one resource pattern that a role's policy allows. */
export interface Allowance {
  action: string;
  resource: string;
}

export interface RoleReport {
  role: string;
  functions: string[];
  needs: Need[];
  granted: Allowance[];
  /** Needs no statement allows: the role grants too little. */
  missing: Need[];
  /** Allowances no need uses: the role grants too much. */
  unused: Allowance[];
  /** Calls seen in the rehearsal that the static list did not predict (the scan missed a sender). */
  unpredicted: SentCall[];
}

interface Statement {
  Effect: 'Allow' | 'Deny';
  Action: string[];
  Resource: string[];
}

const SERVICE_OF_MODULE: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/lib-dynamodb': 'dynamodb',
  '@aws-sdk/client-s3': 's3',
  '@aws-sdk/client-sfn': 'states',
  '@aws-sdk/client-kms': 'kms',
  '@aws-sdk/client-bedrock-runtime': 'bedrock',
  '@aws-sdk/client-secrets-manager': 'secretsmanager',
};

/** SDK command → IAM action, where the names differ (S3 and DynamoDB API references, "Actions"). */
const ACTION_OF_COMMAND: Record<string, Record<string, string>> = {
  dynamodb: {
    Get: 'GetItem',
    Put: 'PutItem',
    Delete: 'DeleteItem',
    Update: 'UpdateItem',
    BatchGet: 'BatchGetItem',
    BatchWrite: 'BatchWriteItem',
    TransactGet: 'TransactGetItems',
    TransactWrite: 'TransactWriteItems',
  },
  s3: {
    HeadObject: 'GetObject',
    ListObjects: 'ListBucket',
    ListObjectsV2: 'ListBucket',
    DeleteObjects: 'DeleteObject',
    HeadBucket: 'ListBucket',
  },
};

/**
 * What DynamoDB needs of a caller on a table encrypted under a customer-managed key: the set CDK's
 * TableGrants adds to the key with every data grant (DynamoDB uses the key on the caller's
 * behalf). Taken as given: the rehearsal cannot observe DynamoDB's own use of KMS.
 */
const TABLE_KEY_ACTIONS = [
  'kms:Decrypt',
  'kms:DescribeKey',
  'kms:Encrypt',
  'kms:GenerateDataKey',
  'kms:ReEncryptFrom',
  'kms:ReEncryptTo',
];

/**
 * The AWS SDK commands a bundle's own source files construct, and the DynamoDB operations they
 * send through Meridian's own DynamoDB client, as `service:Command`, with the file.
 */
export function bundledCommands(
  codeDir: string,
  repoRoot = process.cwd(),
): { service: string; command: string; file: string; call: string }[] {
  const sources = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.map'))
        for (const source of (
          JSON.parse(readFileSync(join(dir, entry.name), 'utf8')) as { sources: string[] }
        ).sources)
          sources.add(source);
    }
  };
  walk(codeDir);
  const found: { service: string; command: string; file: string; call: string }[] = [];
  for (const source of sources) {
    if (
      /node_modules\/@aws-crypto\/kms-keyring\//.test(source) &&
      !found.some((f) => f.file === 'kms-keyring')
    ) {
      // The Encryption SDK's KMS keyring: GenerateDataKey to encrypt, Decrypt to decrypt (Meridian
      // gives it a generator key only, so it never calls Encrypt for additional keys).
      found.push({ service: 'kms', command: 'GenerateDataKey', file: 'kms-keyring', call: 'the keyring' });
      found.push({ service: 'kms', command: 'Decrypt', file: 'kms-keyring', call: 'the keyring' });
      continue;
    }
    const at = source.lastIndexOf('lambdas/');
    if (at < 0 || source.includes('node_modules')) continue;
    const file = source.slice(at);
    const text = readFileSync(join(repoRoot, file), 'utf8');
    const moduleOf = new Map<string, string>();
    for (const [, names, module] of text.matchAll(
      /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(@aws-sdk\/[^']+)'/g,
    ))
      for (const name of names!.split(',')) moduleOf.set(name.replace(/^\s*type\s+/, '').trim(), module!);
    for (const [, command] of text.matchAll(/new (\w+)Command\(/g)) {
      const service = SERVICE_OF_MODULE[moduleOf.get(`${command}Command`) ?? ''];
      if (service) found.push({ service, command: command!, file, call: `${command}Command` });
    }
    // DynamoDB's own client (adapters/dynamodb/dynamodb-http-client.ts) names each operation as it
    // sends it: `client.send('GetItem', …)`, or with the output's type, `send<{ Item?: … }>('GetItem', …)`.
    if (/from '\.[^']*\/dynamodb-http-client\.js'/.test(text))
      for (const [, operation] of text.matchAll(/\.send(?:<[\s\S]*?>)?\(\s*'(\w+)'/g))
        found.push({ service: 'dynamodb', command: operation!, file, call: `send('${operation}')` });
  }
  return found;
}

/** Wildcard match as IAM does it (`*` any run, `?` one character); actions compare case-insensitively. */
function matches(pattern: string, value: string, ignoreCase: boolean): boolean {
  const regex = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    ignoreCase ? 'i' : '',
  );
  return regex.test(value);
}

function allows(statements: Statement[], action: string, resource: string): boolean {
  const hit = (statement: Statement) =>
    statement.Action.some((pattern) => matches(pattern, action, true)) &&
    statement.Resource.some((pattern) => matches(pattern, resource, false));
  return (
    statements.some((s) => s.Effect === 'Allow' && hit(s)) &&
    !statements.some((s) => s.Effect === 'Deny' && hit(s))
  );
}

/** Each role's statements: its AWS::IAM::Policy resources and inline policies (managed policies are refused). */
function roleStatements(names: DeployedNames): Map<string, Statement[]> {
  const byRole = new Map<string, Statement[]>();
  const add = (role: string, stack: SynthesizedStack, document: unknown) => {
    const resolved = names.resolve(stack, document) as {
      Statement: { Effect: string; Action: unknown; Resource: unknown }[];
    };
    const list = byRole.get(role) ?? [];
    for (const s of resolved.Statement)
      list.push({
        Effect: s.Effect as Statement['Effect'],
        Action: [s.Action].flat() as string[],
        Resource: [s.Resource].flat() as string[],
      });
    byRole.set(role, list);
  };
  for (const { stack, properties } of resourcesOfType(names.assembly, 'AWS::IAM::Policy'))
    for (const role of properties.Roles as { Ref: string }[]) add(role.Ref, stack, properties.PolicyDocument);
  for (const { stack, logicalId, properties } of resourcesOfType(names.assembly, 'AWS::IAM::Role')) {
    for (const policy of (properties.Policies ?? []) as { PolicyDocument: unknown }[])
      add(logicalId, stack, policy.PolicyDocument);
    if (properties.ManagedPolicyArns)
      byRole.set(logicalId, [
        ...(byRole.get(logicalId) ?? []),
        { Effect: 'Allow', Action: ['(managed policy)'], Resource: ['*'] },
      ]);
  }
  return byRole;
}

/** What one function needs, from its bundle, its environment and the template. */
function functionNeeds(names: DeployedNames, fn: LocalLambda): Need[] {
  const { environment: env, codeDir } = fn.spec;
  const { stack, properties } = functionResource(names, fn);
  const region = env.AWS_REGION!;
  const account = fn.spec.arn.split(':')[4]!;
  const needs: Need[] = [];
  const tableResource = resourcesOfType(names.assembly, 'AWS::DynamoDB::Table').find(
    (table) => names.physical(table.stack, table.logicalId).ref === env.MERIDIAN_TABLE_NAME,
  );
  const bucketResources = resourcesOfType(names.assembly, 'AWS::S3::Bucket');
  for (const { service, command, file, call } of bundledCommands(codeDir)) {
    const action = `${service}:${ACTION_OF_COMMAND[service]?.[command] ?? command}`;
    const why = `${call} in ${file}`;
    if (service === 'dynamodb' && env.MERIDIAN_TABLE_NAME) {
      const table = `arn:aws:dynamodb:${region}:${account}:table/${env.MERIDIAN_TABLE_NAME}`;
      needs.push({ action, resource: table, why });
      const indexes = (tableResource?.properties.GlobalSecondaryIndexes ?? []) as { IndexName: string }[];
      if (action === 'dynamodb:Query')
        for (const index of indexes)
          needs.push({ action, resource: `${table}/index/${index.IndexName}`, why });
      const sse =
        tableResource &&
        (names.resolve(tableResource.stack, tableResource.properties.SSESpecification) as
          | { KMSMasterKeyId?: string }
          | undefined);
      if (sse?.KMSMasterKeyId)
        for (const keyAction of TABLE_KEY_ACTIONS)
          needs.push({
            action: keyAction,
            resource: sse.KMSMasterKeyId,
            why: "DynamoDB on the table's customer-managed key (CDK's set for a table's data grants)",
          });
    } else if (service === 's3') {
      // Each bucket a function is given, with the prefix its objects are written under.
      const buckets = [
        [env.MERIDIAN_MEMORY_BUCKET_NAME, 'projects/'],
        [env.MERIDIAN_MEMORY_SYNC_BUCKET, 'projects/'],
        [env.MERIDIAN_AUDIT_EXPORT_BUCKET, 'audit/'],
      ].filter(([bucket]) => bucket) as [string, string][];
      for (const [bucket, prefix] of buckets) {
        const objectAction = action !== 's3:ListBucket';
        needs.push({
          action,
          resource: objectAction ? `arn:aws:s3:::${bucket}/${prefix}any` : `arn:aws:s3:::${bucket}`,
          why,
        });
        const template = bucketResources.find((b) => names.physical(b.stack, b.logicalId).ref === bucket);
        const encryption =
          template &&
          (names.resolve(template.stack, template.properties.BucketEncryption) as
            | {
                ServerSideEncryptionConfiguration: {
                  ServerSideEncryptionByDefault: { KMSMasterKeyID?: string };
                }[];
              }
            | undefined);
        const key =
          encryption?.ServerSideEncryptionConfiguration[0]?.ServerSideEncryptionByDefault.KMSMasterKeyID;
        const keyAction = { 's3:GetObject': 'kms:Decrypt', 's3:PutObject': 'kms:GenerateDataKey' }[action];
        if (key && keyAction)
          needs.push({ action: keyAction, resource: key, why: `S3 ${action} on an SSE-KMS bucket` });
      }
    } else if (service === 'states' && env.MERIDIAN_BOOKING_STATE_MACHINE_ARN) {
      needs.push({ action, resource: env.MERIDIAN_BOOKING_STATE_MACHINE_ARN, why });
    } else if (service === 'kms') {
      for (const key of [env.MERIDIAN_DATA_KEY_ARN, env.MERIDIAN_MEMORY_SYNC_KMS_KEY_ARN].filter(
        Boolean,
      ) as string[])
        needs.push({ action, resource: key, why });
    } else if (service === 'secretsmanager' && env.MERIDIAN_SIGN_IN_CLIENT_SECRET_ARN) {
      needs.push({ action, resource: env.MERIDIAN_SIGN_IN_CLIENT_SECRET_ARN, why });
    } else if (service === 'bedrock' && env.MERIDIAN_EMBEDDINGS === 'bedrock') {
      needs.push({
        action,
        resource: `arn:aws:bedrock:${region}::foundation-model/amazon.titan-embed-text-v2:0`,
        why,
      });
    }
  }
  const logGroup = (properties.LoggingConfig as { LogGroup?: { Ref: string } } | undefined)?.LogGroup?.Ref;
  if (logGroup) {
    const arn = names.physical(stack, logGroup).attributes.Arn!;
    for (const action of ['logs:CreateLogStream', 'logs:PutLogEvents'])
      needs.push({
        action,
        resource: arn.replace(/:\*$/, ':log-stream:any'),
        why: 'the Lambda service writes the function’s logs',
      });
  }
  return needs;
}

function functionResource(names: DeployedNames, fn: LocalLambda) {
  const found = resourcesOfType(names.assembly, 'AWS::Lambda::Function').find(
    (f) => f.logicalId === fn.spec.logicalId,
  );
  if (!found) throw new Error(`No function ${fn.spec.logicalId}`);
  return found;
}

/** The least-privilege report of every function's role. */
export function leastPrivilegeReport(
  names: DeployedNames,
  functions: LocalLambda[],
  sentCalls: SentCall[],
): RoleReport[] {
  const statements = roleStatements(names);
  const byRole = new Map<string, LocalLambda[]>();
  for (const fn of functions) {
    const role = roleOf(undefined, functionResource(names, fn).properties);
    byRole.set(role, [...(byRole.get(role) ?? []), fn]);
  }
  return [...byRole].map(([role, members]) => {
    const needs = unique(members.flatMap((fn) => functionNeeds(names, fn)));
    const own = statements.get(role) ?? [];
    const granted = unique(
      own
        .filter((s) => s.Effect === 'Allow')
        .flatMap((s) => s.Action.flatMap((action) => s.Resource.map((resource) => ({ action, resource })))),
    );
    const sent = sentCalls.filter((call) => call.principal === role);
    const missing = [
      ...needs.filter((need) => !allows(own, need.action, need.resource)),
      ...sent
        .filter((call) => !allows(own, call.action, call.resource))
        .map((call) => ({ ...call, why: 'sent during the rehearsal' })),
    ];
    const unused = granted.filter(
      (grant) =>
        !needs.some(
          (need) => matches(grant.action, need.action, true) && matches(grant.resource, need.resource, false),
        ),
    );
    const unpredicted = sent.filter(
      (call) => !needs.some((need) => need.action.toLowerCase() === call.action.toLowerCase()),
    );
    return {
      role,
      functions: members.map((fn) => fn.spec.logicalId),
      needs,
      granted,
      missing: unique(missing),
      unused,
      unpredicted,
    };
  });
}

function unique<T>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The report as text, one block per role: what it needs (and why), what it is granted beyond that. */
export function formatReport(reports: RoleReport[]): string {
  return reports
    .map((report) =>
      [
        `${report.role} (${report.functions.join(', ')})`,
        '  needs:',
        ...unique(report.needs.map((need) => `    ${need.action}  ${need.why}`)).sort(),
        `  granted beyond the needs: ${report.unused.length === 0 ? 'nothing' : ''}`,
        ...report.unused.map((grant) => `    ${grant.action} on ${grant.resource}`),
        `  needed but not granted: ${report.missing.length === 0 ? 'nothing' : ''}`,
        ...report.missing.map((need) => `    ${need.action} on ${need.resource} (${need.why})`),
      ].join('\n'),
    )
    .join('\n');
}
