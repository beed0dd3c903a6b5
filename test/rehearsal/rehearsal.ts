import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DynamoDBClient,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import S3rver from 's3rver';
import { SIGN_IN_CLIENT_ID_ENV, SIGN_IN_ISSUER_ENV } from '../../lambdas/runtime/environment-names.js';
import { type ApiFront, startApiFront, type TemplateApi, templateApi } from './api-front.js';
import { type CloudAssembly, resourcesOfType } from './cloud-assembly.js';
import { type FakeKms, keyOfBlob, startFakeKms } from './fake-kms.js';
import { DeployedNames, REHEARSAL_REGION } from './intrinsics.js';
import { type FunctionSpec, LocalLambda } from './local-lambda.js';
import {
  type LocalStepFunctions,
  startLocalStepFunctions,
  templateStateMachines,
} from './local-step-functions.js';
import {
  classifyDynamoDb,
  classifyKms,
  classifyS3,
  classifyStepFunctions,
  type SentCall,
  startRecordingProxy,
} from './recording-proxy.js';

/**
 * s3rver checks access keys against its account registry (a test-only internal, reached this way
 * because its options offer no key list). Each function signs with its role's logical id as access
 * key, so that every call a part receives names the role that made it.
 */
const s3rverAccount = createRequire(import.meta.url)('s3rver/lib/models/account') as {
  DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
};

/** A schedule of the template: the function it targets and the payload it sends. */
export interface RehearsedSchedule {
  logicalId: string;
  expression: string;
  functionArn: string;
  payload: unknown;
}

/** The stack as deployed, on local parts. */
export interface Rehearsal {
  /** The API's host root, e.g. `http://127.0.0.1:PORT` (the `$default` stage); MCP is at `${apiUrl}/mcp`. */
  apiUrl: string;
  /** The HTTP API's stage and routes as the template declares them. */
  api: TemplateApi;
  /** The physical names the rehearsal gave the template's resources, and the resolver of its values. */
  names: DeployedNames;
  /** Each stack's outputs, resolved (by stack id, then output name), e.g. the table name for `meridian --aws`. */
  outputs: Record<string, Record<string, string>>;
  /** Every function of the template by logical id. */
  functions: Map<string, LocalLambda>;
  schedules: RehearsedSchedule[];
  stepFunctions: LocalStepFunctions;
  /** The stand-in for KMS, with the template's keys. */
  kms: FakeKms;
  /** s3rver itself (path-style, key S3RVER), for a test to look into the buckets. */
  bucketsEndpoint: string;
  /** Every call the functions sent to DynamoDB, S3, Step Functions and KMS, with its role and IAM action. */
  sentCalls: SentCall[];
  /** Calls the unrehearsed-AWS endpoint received (a function reaching for a service no local part stands for). */
  unrehearsedCalls: string[];
  /** Invokes a schedule's target with the template's payload, as EventBridge Scheduler would. */
  runSchedule(schedule: RehearsedSchedule): Promise<unknown>;
  functionByArn(arn: string): LocalLambda;
  close(): Promise<void>;
}

export interface RehearsalOptions {
  /** Where DynamoDB Local listens (the run's shared instance; table names are unique per rehearsal). */
  dynamoDbEndpoint: string;
  /**
   * The one substitution of the template's environment (ADR 0017): the issuer people sign in at.
   * The template names its Cognito user pool, which cannot run here; this replaces exactly
   * MERIDIAN_SIGN_IN_ISSUER and MERIDIAN_SIGN_IN_CLIENT_ID on the function the template gives
   * them to, with a local OpenID provider configured as that pool is (test/support/upstream-issuer.ts).
   */
  signInIssuer?: { issuer: string; clientId: string };
}

/**
 * Runs the synthesized app on local parts: its tables on DynamoDB Local (keys, indexes, TTL from the
 * template), its buckets on s3rver, its state machines on aws-local-stepfunctions, its functions from
 * their bundled assets with the template's environment, and its HTTP API in front of them.
 *
 * The functions' environment is the template's, resolved, plus what the Lambda runtime sets
 * (region, function name, memory, TZ=:UTC, credentials) and, because nothing here is AWS, the
 * SDK's endpoint variables: AWS_ENDPOINT_URL_DYNAMODB, _S3, _SFN and _KMS point at the local parts and
 * AWS_ENDPOINT_URL at a server that refuses and records every other call, so that no call can
 * reach a real AWS endpoint.
 */
export async function startRehearsal(assembly: CloudAssembly, options: RehearsalOptions): Promise<Rehearsal> {
  const names = new DeployedNames(assembly);
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    await createTables(names, options.dynamoDbEndpoint);
    const s3Endpoint = await startBuckets(names, closers);
    const unrehearsed = await startUnrehearsedAws(closers);
    const kms = await startFakeKms(
      resourcesOfType(names.assembly, 'AWS::KMS::Key').map(
        ({ stack, logicalId }) => names.physical(stack, logicalId).attributes.Arn!,
      ),
    );
    closers.push(() => kms.close());

    const functions = new Map<string, LocalLambda>();
    let sfnEndpoint = '';
    const functionByArn = (arn: string) => {
      const fn = [...functions.values()].find((candidate) => candidate.spec.arn === arn);
      if (!fn) throw new Error(`No function of the template has the ARN ${arn}`);
      return fn;
    };
    const stepFunctions = await startLocalStepFunctions(
      templateStateMachines(names),
      (arn, payload) => functionByArn(arn).invoke(payload),
      (arn) => [...functions.values()].some((candidate) => candidate.spec.arn === arn),
    );
    closers.push(() => stepFunctions.close());
    sfnEndpoint = stepFunctions.endpoint;

    const sentCalls: SentCall[] = [];
    const proxy = async (target: string, classify: Parameters<typeof startRecordingProxy>[1]) => {
      const started = await startRecordingProxy(target, classify, sentCalls);
      closers.push(() => started.close());
      return started.endpoint;
    };
    // The SDK puts host prefixes and bucket names before these hosts: *.localhost names resolve
    // to loopback inside the functions (lambda-host.mjs).
    const endpoints = {
      AWS_ENDPOINT_URL: unrehearsed.endpoint,
      AWS_ENDPOINT_URL_DYNAMODB: (await proxy(options.dynamoDbEndpoint, classifyDynamoDb))(),
      AWS_ENDPOINT_URL_S3: (await proxy(s3Endpoint, classifyS3))('s3.localhost'),
      AWS_ENDPOINT_URL_SFN: (await proxy(sfnEndpoint, classifyStepFunctions))('sfn.localhost'),
      AWS_ENDPOINT_URL_KMS: (await proxy(kms.endpoint, classifyKms(keyOfBlob)))(),
    };
    for (const spec of substituteSignInIssuer(functionSpecs(names, endpoints), options.signInIssuer)) {
      s3rverAccount.DUMMY_ACCOUNT.createKeyPair(
        spec.environment.AWS_ACCESS_KEY_ID!,
        spec.environment.AWS_SECRET_ACCESS_KEY!,
      );
      const fn = new LocalLambda(spec);
      functions.set(spec.logicalId, fn);
      closers.push(() => fn.close());
    }

    const api = templateApi(names);
    const front: ApiFront = await startApiFront(api, (arn, event) => functionByArn(arn).invoke(event));
    closers.push(() => front.close());

    const outputs = Object.fromEntries(
      assembly.stacks.map((stack) => [
        stack.id,
        Object.fromEntries(
          Object.entries(stack.outputs).map(([name, output]) => [
            name,
            String(names.resolve(stack, output.Value)),
          ]),
        ),
      ]),
    );
    return {
      apiUrl: front.url,
      api,
      names,
      outputs,
      functions,
      schedules: templateSchedules(names),
      stepFunctions,
      kms,
      sentCalls,
      bucketsEndpoint: s3Endpoint,
      unrehearsedCalls: unrehearsed.calls,
      runSchedule: (schedule) => functionByArn(schedule.functionArn).invoke(schedule.payload),
      functionByArn,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Each table of the template created on DynamoDB Local as CloudFormation would create it. */
async function createTables(names: DeployedNames, endpoint: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: REHEARSAL_REGION,
    credentials: { accessKeyId: 'rehearsal', secretAccessKey: 'rehearsal' },
  });
  try {
    for (const { stack, logicalId, properties } of resourcesOfType(names.assembly, 'AWS::DynamoDB::Table')) {
      const table = names.resolve(stack, properties) as Record<string, unknown> &
        Partial<CreateTableCommandInput>;
      const TableName = names.physical(stack, logicalId).ref;
      await client.send(
        new CreateTableCommand({
          TableName,
          AttributeDefinitions: table.AttributeDefinitions,
          KeySchema: table.KeySchema,
          BillingMode: table.BillingMode,
          GlobalSecondaryIndexes: table.GlobalSecondaryIndexes,
          LocalSecondaryIndexes: table.LocalSecondaryIndexes,
          ...(table.ProvisionedThroughput ? { ProvisionedThroughput: table.ProvisionedThroughput } : {}),
        }),
      );
      const ttl = table.TimeToLiveSpecification as { AttributeName: string; Enabled: boolean } | undefined;
      if (ttl?.Enabled)
        await client.send(
          new UpdateTimeToLiveCommand({
            TableName,
            TimeToLiveSpecification: { AttributeName: ttl.AttributeName, Enabled: true },
          }),
        );
    }
  } finally {
    client.destroy();
  }
}

/**
 * s3rver with the template's buckets, addressed virtual-host style as the SDK addresses S3 by
 * default (`<bucket>.s3.localhost`): the functions' S3 clients are the deployed ones, with no
 * `forcePathStyle`.
 */
async function startBuckets(names: DeployedNames, closers: (() => Promise<unknown>)[]): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'meridian-rehearsal-s3-'));
  closers.push(() => rm(directory, { recursive: true, force: true }));
  const buckets = resourcesOfType(names.assembly, 'AWS::S3::Bucket').map(
    ({ stack, logicalId }) => names.physical(stack, logicalId).ref,
  );
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    serviceEndpoint: 'localhost',
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  closers.push(() => server.close());
  return `http://127.0.0.1:${port}`;
}

/** A server standing for every AWS service the rehearsal has no local part for: it refuses and records. */
async function startUnrehearsedAws(closers: (() => Promise<unknown>)[]) {
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    calls.push(
      `${request.headers.host} ${request.method} ${request.url} ${request.headers['x-amz-target'] ?? ''}`.trim(),
    );
    response.writeHead(400, {
      'content-type': 'application/json',
      'x-amzn-errortype': 'UnrecognizedClientException',
    });
    response.end(
      JSON.stringify({
        __type: 'UnrecognizedClientException',
        message: 'Not rehearsed: no local part stands for this service.',
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`, calls };
}

/** Every function of the template: code, handler and limits from its properties, environment resolved. */
function functionSpecs(names: DeployedNames, endpoints: Record<string, string>): FunctionSpec[] {
  return resourcesOfType(names.assembly, 'AWS::Lambda::Function').map(({ stack, logicalId, properties }) => {
    const physical = names.physical(stack, logicalId);
    const code = properties.Code as { S3Key: unknown };
    const codeDir = stack.assetPath(String(names.resolve(stack, code.S3Key)));
    const variables = names.resolve(
      stack,
      (properties.Environment as { Variables?: unknown } | undefined)?.Variables ?? {},
    ) as Record<string, string>;
    const runtime = String(properties.Runtime);
    const memoryMb = Number(properties.MemorySize ?? 128);
    const handler = String(properties.Handler);
    const logGroup = (properties.LoggingConfig as { LogGroup?: unknown } | undefined)?.LogGroup;
    return {
      logicalId,
      name: physical.ref,
      arn: physical.attributes.Arn!,
      codeDir,
      handler,
      runtime,
      timeoutSeconds: Number(properties.Timeout ?? 3),
      memoryMb,
      environment: {
        ...variables,
        // What the Lambda runtime sets in every function (the reserved variables).
        AWS_REGION: REHEARSAL_REGION,
        AWS_DEFAULT_REGION: REHEARSAL_REGION,
        AWS_LAMBDA_FUNCTION_NAME: physical.ref,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memoryMb),
        AWS_LAMBDA_LOG_GROUP_NAME: logGroup
          ? String(names.resolve(stack, logGroup))
          : `/aws/lambda/${physical.ref}`,
        AWS_EXECUTION_ENV: `AWS_Lambda_${runtime}`,
        LAMBDA_TASK_ROOT: codeDir,
        _HANDLER: handler,
        TZ: ':UTC',
        LANG: 'en_US.UTF-8',
        // The role's credentials: its logical id names the caller in every recorded call.
        AWS_ACCESS_KEY_ID: roleOf(stack, properties),
        AWS_SECRET_ACCESS_KEY: 'rehearsal-secret',
        AWS_SESSION_TOKEN: 'rehearsal',
        // Not on Lambda: where the local parts listen.
        ...endpoints,
      },
    };
  });
}

/**
 * The specs with the sign-in issuer replaced where the template sets it (and only there); a
 * template that sets it nowhere fails the rehearsal, since there would be nothing to stand in for.
 */
function substituteSignInIssuer(
  specs: FunctionSpec[],
  signIn: RehearsalOptions['signInIssuer'],
): FunctionSpec[] {
  if (!signIn) return specs;
  const signingIn = specs.filter((spec) => spec.environment[SIGN_IN_ISSUER_ENV] !== undefined);
  if (signingIn.length === 0)
    throw new Error(
      `No function of the template has ${SIGN_IN_ISSUER_ENV}: there is no issuer to stand in for.`,
    );
  for (const spec of signingIn) {
    spec.environment[SIGN_IN_ISSUER_ENV] = signIn.issuer;
    spec.environment[SIGN_IN_CLIENT_ID_ENV] = signIn.clientId;
  }
  return specs;
}

/** The logical id of a function's execution role (its `Role: { Fn::GetAtt: [id, 'Arn'] }`). */
export function roleOf(_stack: unknown, properties: Record<string, unknown>): string {
  const role = properties.Role as { 'Fn::GetAtt'?: [string, string] };
  const logicalId = role['Fn::GetAtt']?.[0];
  if (!logicalId) throw new Error(`A function's Role is not a role of the template: ${JSON.stringify(role)}`);
  return logicalId;
}

/** The template's schedules (EventBridge Scheduler schedules and rules) that target a function. */
function templateSchedules(names: DeployedNames): RehearsedSchedule[] {
  const schedules = resourcesOfType(names.assembly, 'AWS::Scheduler::Schedule').map(
    ({ stack, logicalId, properties }) => {
      const target = names.resolve(stack, properties.Target) as { Arn: string; Input?: string };
      return {
        logicalId,
        expression: String(properties.ScheduleExpression),
        functionArn: target.Arn,
        payload: target.Input === undefined ? {} : JSON.parse(target.Input),
      };
    },
  );
  const rules = resourcesOfType(names.assembly, 'AWS::Events::Rule').flatMap(
    ({ stack, logicalId, properties }) =>
      (names.resolve(stack, properties.Targets ?? []) as { Arn: string; Input?: string }[])
        .filter((target) => target.Arn.includes(':lambda:'))
        .map((target) => ({
          logicalId,
          expression: String(properties.ScheduleExpression),
          functionArn: target.Arn,
          payload:
            target.Input === undefined
              ? { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }
              : JSON.parse(target.Input),
        })),
  );
  return [...schedules, ...rules];
}
