/**
 * The deploy rehearsal: the app as `cdk synth` writes it (templates and bundled assets), run on
 * local parts by test/rehearsal/rehearsal.ts, then checked the way a person checks a deployment:
 * `meridian --aws keys create` against the deployed table, `meridian smoke` against the API, and
 * a person signing in through the OAuth function with an MCP client and a browser.
 *
 * One substitution of the template's environment is made (ADR 0017): the OAuth function's
 * MERIDIAN_SIGN_IN_ISSUER and _CLIENT_ID name the stack's Cognito user pool, which cannot run
 * here, so they name a local OpenID provider configured as that pool's client is (a public
 * client, PKCE, no secret: test/support/upstream-issuer.ts). Everything else is the template's.
 */

import { rm } from 'node:fs/promises';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, meridianExit } from '../support/cli.js';
import { dynamoDbLocalEndpoint } from '../support/dynamodb-local-endpoint.js';
import { launchChromium } from '../support/headless-chromium.js';
import { callTool, connectHttpClient, okTool } from '../support/mcp-client.js';
import { listToolsWithBearer } from '../support/oauth-http-flow.js';
import { LoopbackOAuthClient } from '../support/oauth-test-client.js';
import { CHROMIUM, JAVA, needs, OPENSSL } from '../support/system-parts.js';
import {
  MERIDIAN_PUBLIC_CLIENT,
  startUpstreamIssuer,
  type UpstreamIssuer,
} from '../support/upstream-issuer.js';
import { type CloudAssembly, synthesizeApp } from './cloud-assembly.js';
import { DeployedHost } from './deployed-host.js';
import { REHEARSAL_REGION } from './intrinsics.js';
import { formatReport, leastPrivilegeReport } from './least-privilege.js';
import { type Rehearsal, startRehearsal } from './rehearsal.js';

let assembly: CloudAssembly;
let rehearsal: Rehearsal;
/** The organization's issuer people sign in at, standing in for the stack's Cognito user pool. */
let issuer: UpstreamIssuer;

/** DynamoDB Local is a Java program: without Java the rehearsal is skipped (CI=true: fails). */
const java = needs(JAVA);

beforeAll(async () => {
  if (java.skip) return;
  assembly = await synthesizeApp();
  issuer = await startUpstreamIssuer(
    { 'u-alice': { password: 'issuer password', email: 'alice@example.com', email_verified: true } },
    { meridian: 'public' },
  );
  rehearsal = await startRehearsal(assembly, {
    dynamoDbEndpoint: dynamoDbLocalEndpoint(),
    signInIssuer: { issuer: issuer.issuer, clientId: MERIDIAN_PUBLIC_CLIENT.id },
  });
  // The callback URL the stack registers at its user pool.
  issuer.register(`${deployedHostRoot()}/oauth/upstream/callback`);
}, 300_000);

afterAll(async () => {
  await rehearsal?.close();
  await issuer?.close();
  if (assembly) await rm(assembly.directory, { recursive: true, force: true });
});

/** The environment `meridian --aws` runs with: the data stack's outputs, and the local DynamoDB. */
function adminEnvironment(): Record<string, string> {
  const data = Object.values(rehearsal.outputs).find((outputs) => outputs.TableName !== undefined)!;
  return {
    MERIDIAN_TABLE_NAME: data.TableName!,
    MERIDIAN_DATA_KEY_ARN: data.DataKeyArn!,
    AWS_REGION: REHEARSAL_REGION,
    AWS_ACCESS_KEY_ID: 'rehearsal',
    AWS_SECRET_ACCESS_KEY: 'rehearsal',
    AWS_ENDPOINT_URL_DYNAMODB: dynamoDbLocalEndpoint(),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

/** The deployed host root, as the stack prints it: `https://<api id>.execute-api.<region>.amazonaws.com`. */
function deployedHostRoot(): string {
  const endpoint = Object.values(rehearsal.outputs).find((outputs) => outputs.McpEndpointUrl)!
    .McpEndpointUrl!;
  return endpoint.replace(/\/mcp$/, '');
}

describe('the synthesized stack, run as deployed on local parts', java, () => {
  it('passes `meridian smoke` through its routes, functions, table, bucket and booking state machine', async () => {
    const created = await meridian(
      ['--aws', 'keys', 'create', '--label', 'rehearsal smoke'],
      adminEnvironment(),
    );
    const apiKey = /mrd_\S+/.exec(created.stdout)?.[0];
    expect(apiKey).toBeDefined();

    const smoke = await meridianExit(['smoke', `${rehearsal.apiUrl}/mcp`, '--api-key', apiKey!]);
    // The smoke report belongs in the CI log: it is what `cdk deploy` would be judged by.
    console.log(smoke.stdout);

    expect(smoke.code, `${smoke.stdout}${smoke.stderr}\n${functionLogs()}`).toBe(0);
    expect(smoke.stdout).toMatch(/smoke passed: 10 passed, 0 failed/);
    expect(smoke.stdout).not.toMatch(/^FAIL/m);
    // The booking went through the template's state machine and its step functions…
    expect(rehearsal.stepFunctions.executions).toContainEqual(
      expect.objectContaining({ status: 'SUCCEEDED' }),
    );
    const stepsRun = [...rehearsal.functions.values()]
      .filter((fn) => fn.invocations.length > 0 && fn.spec.handler !== 'index.handler')
      .map((fn) => fn.spec.handler);
    expect(stepsRun).toEqual(
      expect.arrayContaining([
        'index.lockHandler',
        'index.verifyHandler',
        'index.writeHandler',
        'index.releaseHandler',
      ]),
    );
    // …the snapshot landed in the template's bucket…
    const bucket = Object.values(rehearsal.outputs).flatMap((outputs) =>
      Object.entries(outputs).filter(([name]) =>
        /MemoryBucket.*Ref|^PublishOutputRefMemoryBucket/.test(name),
      ),
    )[0]?.[1];
    expect(bucket).toBeDefined();
    expect(await objectKeys(bucket!)).toEqual(expect.arrayContaining([expect.stringMatching(/snap_/)]));
    // …encrypted under the template's key…
    expect(rehearsal.kms.calls).toEqual(
      expect.arrayContaining([expect.stringMatching(/^GenerateDataKey arn:aws:kms:/)]),
    );
    // …and no function reached for a service the rehearsal has no part for.
    expect(rehearsal.unrehearsedCalls).toEqual([]);
  }, 120_000);

  it('answers only the routes the template declares, at the host root, as an HTTP API does', async () => {
    const unknownMethod = await fetch(`${rehearsal.apiUrl}/mcp`, { method: 'GET' });
    const unknownPath = await fetch(`${rehearsal.apiUrl}/prod/mcp`, { method: 'POST', body: '{}' });
    const health = await fetch(`${rehearsal.apiUrl}/health`);

    expect(rehearsal.api.stageName).toBe('$default');
    expect(unknownMethod.status).toBe(404);
    expect(await unknownMethod.json()).toEqual({ message: 'Not Found' });
    expect(unknownPath.status).toBe(404);
    expect(health.status).toBe(200);
  });

  it('serves the protected resource metadata at the host root through the MCP function, and a 401 names it by absolute URL', async () => {
    // The deployed host root, as the stack prints it (what the functions were told, too).
    const endpoint = Object.values(rehearsal.outputs).find((outputs) => outputs.McpEndpointUrl)!
      .McpEndpointUrl!;
    const hostRoot = endpoint.replace(/\/mcp$/, '');
    expect(hostRoot).toMatch(/^https:\/\/[a-z0-9]+\.execute-api\.eu-west-1\.amazonaws\.com$/);
    const mcpFunction = [...rehearsal.functions.values()].find((fn) =>
      fn.spec.logicalId.startsWith('McpFunction'),
    )!;
    const invokedBefore = mcpFunction.invocations.length;

    const unauthenticated = await fetch(`${rehearsal.apiUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const challenge = unauthenticated.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];

    expect(unauthenticated.status).toBe(401);
    expect(metadataUrl).toBe(`${hostRoot}/.well-known/oauth-protected-resource/mcp`);
    // The rehearsal's front stands for that host: the same paths, at its root.
    for (const path of [new URL(metadataUrl!).pathname, '/.well-known/oauth-protected-resource']) {
      const metadata = await fetch(`${rehearsal.apiUrl}${path}`);
      const preflight = await fetch(`${rehearsal.apiUrl}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://claude.ai', 'access-control-request-method': 'GET' },
      });

      expect(metadata.status, path).toBe(200);
      expect(await metadata.json()).toMatchObject({ resource: endpoint, authorization_servers: [hostRoot] });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    }
    // The 401, two documents and two preflights: all answered by the bundled MCP handler.
    const paths = mcpFunction.invocations
      .slice(invokedBefore)
      .map(({ event }) => `${(event as { routeKey: string }).routeKey}`);
    expect(paths).toEqual([
      'POST /mcp',
      'GET /.well-known/oauth-protected-resource/mcp',
      'OPTIONS /.well-known/oauth-protected-resource/mcp',
      'GET /.well-known/oauth-protected-resource',
      'OPTIONS /.well-known/oauth-protected-resource',
    ]);
  });

  it('runs every schedule’s target with the payload the template gives it, without failures', async () => {
    expect(rehearsal.schedules.length).toBeGreaterThanOrEqual(3);
    for (const schedule of rehearsal.schedules) {
      const summary = (await rehearsal.runSchedule(schedule)) as { failures?: unknown[] };

      expect(summary, schedule.logicalId).toMatchObject({ failures: [] });
    }
    // The audit export wrote today's chain (the smoke's and the admin CLI's changes) to the
    // template's Object Lock bucket, as one JSON record a line.
    const auditBucket = Object.values(rehearsal.outputs).flatMap((outputs) =>
      Object.entries(outputs).filter(([name]) => /^PublishOutputRefAuditExports/.test(name)),
    )[0]?.[1];
    expect(auditBucket).toBeDefined();
    const today = new Date().toISOString().slice(0, 10);
    expect(await objectKeys(auditBucket!)).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^audit/${today}/[0-9a-f]{64}\\.jsonl$`))]),
    );
  }, 60_000);
});

describe('signing in on the synthesized stack', needs(JAVA, CHROMIUM, OPENSSL), () => {
  it('signs a person added with the CLI in at the issuer, through consent, to a token within their grants, until the session is revoked', async () => {
    // The administrator: two calendars (with a key), a person who signs in at the issuer, one grant.
    const created = await meridian(
      ['--aws', 'keys', 'create', '--label', 'rehearsal admin'],
      adminEnvironment(),
    );
    const owner = await connectHttpClient(`${rehearsal.apiUrl}/mcp`, undefined, {
      authorization: `Bearer ${/mrd_\S+/.exec(created.stdout)![0]}`,
    });
    const work = (await okTool(owner, 'create_calendar', { summary: 'Work' })).calendar.id as string;
    const personal = (await okTool(owner, 'create_calendar', { summary: 'Personal' })).calendar.id as string;
    await owner.close();
    await meridian(['--aws', 'users', 'add', 'alice@example.com', '--external'], adminEnvironment());
    await meridian(['--aws', 'users', 'grant', 'alice@example.com', work, 'write'], adminEnvironment());

    // The MCP client reaches the deployed host (answered by the rehearsal's front).
    const host = await DeployedHost.start(deployedHostRoot(), rehearsal.apiUrl);
    const seen: string[] = [];
    const fetchSeen: typeof host.fetch = (input, init) => {
      seen.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return host.fetch(input, init);
    };
    const mcpUrl = new URL(`${host.hostRoot}/mcp`);
    const oauthClient = await LoopbackOAuthClient.start('Rehearsal client');
    const chromium = await launchChromium(host.chromiumArgs);
    try {
      const transport = () =>
        new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauthClient, fetch: fetchSeen });
      await expect(new Client({ name: 'rehearsal', version: '1.0.0' }).connect(transport())).rejects.toThrow(
        UnauthorizedError,
      );
      // 401 → the metadata at the host root → the authorization server's → registration (DCR).
      expect(seen).toEqual([
        `POST ${host.hostRoot}/mcp`,
        `GET ${host.hostRoot}/.well-known/oauth-protected-resource/mcp`,
        `GET ${host.hostRoot}/.well-known/oauth-authorization-server`,
        `POST ${host.hostRoot}/oauth/register`,
      ]);
      expect(oauthClient.authorizationUrl?.origin).toBe(host.hostRoot);

      // The person's browser: sent to the issuer, signed in there, back to consent; approves.
      const context = await chromium.browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await page.goto(oauthClient.authorizationUrl!.href);
      expect(new URL(page.url()).origin).toBe(issuer.issuer);
      await page.fill('input[autocomplete="username"]', 'u-alice');
      await page.fill('input[autocomplete="current-password"]', 'issuer password');
      await page.click('button[name="sign_in"]');
      await page.waitForSelector('button[name="approve"]');
      expect(new URL(page.url()).origin).toBe(host.hostRoot);
      const signedInAs = await page.locator('strong').first().textContent();
      const offered = await page
        .locator('select[name^="grant:"]')
        .evaluateAll((selects) => selects.map((s) => (s as HTMLSelectElement).name));
      await page.click('button[name="approve"]');
      await page.waitForURL(/\/callback\?/);
      await context.close();

      const params = await oauthClient.callbackParams();
      await transport().finishAuth(params);
      const client = new Client({ name: 'rehearsal', version: '1.0.0' });
      await client.connect(transport());
      const granted = await callTool(client, 'create_event', {
        calendar_id: work,
        summary: 'Signed in on AWS',
        start: '2030-01-07T09:00:00Z',
        end: '2030-01-07T09:15:00Z',
      });
      const notGranted = await callTool(client, 'create_event', {
        calendar_id: personal,
        summary: 'Not mine',
        start: '2030-01-07T09:00:00Z',
        end: '2030-01-07T09:15:00Z',
      });
      await client.close();

      expect(signedInAs).toBe('alice@example.com');
      expect(offered).toEqual([`grant:${work}`]);
      expect(params.get('iss')).toBe(host.hostRoot);
      expect(granted.isError, JSON.stringify(granted.content)).toBeFalsy();
      expect(notGranted.isError).toBe(true);
      expect(JSON.stringify(notGranted.content)).toContain('FORBIDDEN');

      // The administrator sees the session and ends it: the token fails at its next request.
      const token = oauthClient.tokens()!.access_token;
      const listTools = () => listToolsWithBearer(mcpUrl, token, host.fetch);
      expect((await listTools()).status).toBe(200);
      const listed = await meridianExit(
        ['--aws', 'sessions', 'list', '--user', 'alice@example.com'],
        adminEnvironment(),
      );
      const clientId = oauthClient.clientInformation()!.client_id;
      expect(listed.stdout).toContain(`  alice@example.com  ${clientId}  `);
      const revoked = await meridianExit(
        ['--aws', 'sessions', 'revoke', listed.stdout.split('  ')[0]!],
        adminEnvironment(),
      );

      expect({ code: revoked.code, stderr: revoked.stderr }).toEqual({ code: 0, stderr: '' });
      expect((await listTools()).status).toBe(401);
      // Discovery, registration, both pages, the issuer's callback and the token: the OAuth
      // function's routes, each answered without a failure.
      const oauthFunction = [...rehearsal.functions.values()].find((fn) =>
        fn.spec.logicalId.startsWith('OauthFunction'),
      )!;
      const oauthRoutes = oauthFunction.invocations.map(
        ({ event }) => (event as { rawPath: string }).rawPath,
      );
      expect(oauthRoutes).toEqual(
        expect.arrayContaining([
          '/.well-known/oauth-authorization-server',
          '/oauth/register',
          '/oauth/authorize',
          '/oauth/upstream/callback',
          expect.stringMatching(/^\/oauth\/interaction\/[\w-]+\/consent$/),
          '/oauth/token',
        ]),
      );
      expect(oauthFunction.invocations.filter(({ failed }) => failed)).toEqual([]);
    } finally {
      await chromium.close();
      await oauthClient.close();
      await host.close();
    }
  }, 120_000);
});

describe('least privilege, on the synthesized template', java, () => {
  it('lets each function’s role make every call its bundle can send, and nothing more', () => {
    // After the tests above: the calls the rehearsal recorded are checked too.
    const reports = leastPrivilegeReport(
      rehearsal.names,
      [...rehearsal.functions.values()],
      rehearsal.sentCalls,
    );
    console.log(formatReport(reports));

    // Every function's role is checked; a function added to the stack brings its role along.
    expect(reports.map((report) => report.role)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^BookingStepRole/),
        expect.stringMatching(/^McpFunctionRole/),
        expect.stringMatching(/^MemoryCompressionRole/),
        expect.stringMatching(/^SyncScheduleRole/),
        expect.stringMatching(/^AuditExportRole/),
      ]),
    );
    for (const report of reports) {
      expect(report.missing, `${report.role} is not granted`).toEqual([]);
      expect(report.unused, `${report.role} is granted beyond its bundle`).toEqual([]);
      expect(report.unpredicted, `${report.role} sent calls the bundle scan did not predict`).toEqual([]);
    }
    // The recording saw the calls of the rehearsal: table items, the bucket, the booking, the key.
    const seen = new Set(rehearsal.sentCalls.map((call) => call.action));
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'dynamodb:Query',
        's3:PutObject',
        'states:StartSyncExecution',
        'kms:GenerateDataKey',
      ]),
    );
  });
});

/** The last log lines of every function that ran, for a failure's message. */
function functionLogs(): string {
  return [...rehearsal.functions.values()]
    .filter((fn) => fn.output !== '')
    .map((fn) => `--- ${fn.spec.logicalId}\n${fn.output.slice(-3000)}`)
    .join('\n');
}

/** The object keys of a rehearsal bucket, read from the s3rver the functions write to. */
async function objectKeys(bucket: string): Promise<string[]> {
  const fn = [...rehearsal.functions.values()].find(
    (candidate) => candidate.spec.environment.AWS_ENDPOINT_URL_S3,
  )!;
  const endpoint = fn.spec.environment.AWS_ENDPOINT_URL_S3!.replace('s3.localhost', '127.0.0.1');
  const client = new S3Client({
    endpoint,
    region: REHEARSAL_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    const { Contents = [] } = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    return Contents.map((object) => object.Key!);
  } finally {
    client.destroy();
  }
}
