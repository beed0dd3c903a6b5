/**
 * The CDK app: composition only. Stacks are environment-agnostic, so `cdk synth` needs neither
 * credentials nor network; `cdk deploy` takes account and region from the caller's profile.
 *
 * Optional context: `-c stage=dev` (default `prod`) names the CloudFormation stacks, so several
 * deployments can share an account; `-c domainName=mcp.example.com -c certificateArn=ARN` serves
 * the API at that domain with that ACM certificate; `-c timezone=Europe/Paris` sets the default zone;
 * `-c syncMinutes=15` syncs connected calendars every 15 minutes instead of 5;
 * `-c allowedOrigins=https://app.example.com` lets that browser origin call MCP;
 * `-c embeddings=bedrock` (optionally `-c embeddingDimension=512`) embeds project memory with
 * Amazon Bedrock Titan Text Embeddings v2; `-c memorySyncBucket=NAME -c memorySyncKeyArn=ARN`
 * lets project memory sync through the organisation's bucket, encrypted under that KMS key;
 * `-c signInIssuer=https://… -c signInClientId=… -c signInClientSecretArn=arn:…` makes people sign
 * in at the organization's own OpenID Connect provider instead of a Cognito user pool the stack creates.
 */
import { App, Duration, Validations } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { isTitanDimension } from '../lambdas/adapters/bedrock/titan-model.js';
import type { OutlookApp } from '../lib/constructs/outlook-app.js';
import { DataStack } from '../lib/stacks/data-stack.js';
import { ServiceStack } from '../lib/stacks/service-stack.js';
import { signInIssuerFrom } from '../lib/stacks/sign-in-issuer-context.js';

const app = new App();

const stage: unknown = app.node.tryGetContext('stage') ?? 'prod';
// The stage ends up in the stack names and the data key's alias; this is what both accept.
if (typeof stage !== 'string' || !/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
  throw new Error(
    `Context "stage" must be 1-20 lower-case letters, digits or dashes starting with a letter (got ${JSON.stringify(stage)}).`,
  );
}
const timezone: unknown = app.node.tryGetContext('timezone');
if (timezone !== undefined && typeof timezone !== 'string') {
  throw new Error(
    `Context "timezone" must be an IANA zone name such as "Europe/Paris" (got ${JSON.stringify(timezone)}).`,
  );
}

// Context given with -c arrives as a string; cdk.json may hold a number.
const syncMinutes: unknown = app.node.tryGetContext('syncMinutes');
if (syncMinutes !== undefined && !(/^\d+$/.test(String(syncMinutes)) && Number(syncMinutes) >= 1)) {
  throw new Error(
    `Context "syncMinutes" must be a whole number of minutes, at least 1 (got ${JSON.stringify(syncMinutes)}).`,
  );
}

// Both or neither: the Google OAuth "Desktop app" client that connected Google accounts refresh with.
const googleClientId: unknown = app.node.tryGetContext('googleClientId');
const googleClientSecret: unknown = app.node.tryGetContext('googleClientSecret');
if (
  (googleClientId === undefined) !== (googleClientSecret === undefined) ||
  [googleClientId, googleClientSecret].some(
    (v) => v !== undefined && (typeof v !== 'string' || v.trim() === ''),
  )
) {
  throw new Error(
    'Give both -c googleClientId=… and -c googleClientSecret=… (a Google OAuth "Desktop app" client), or neither.',
  );
}

// The local embedder unless Bedrock is asked for; a dimension only makes sense with Bedrock.
const embeddings: unknown = app.node.tryGetContext('embeddings') ?? 'local';
if (embeddings !== 'local' && embeddings !== 'bedrock') {
  throw new Error(`Context "embeddings" must be "local" or "bedrock" (got ${JSON.stringify(embeddings)}).`);
}
const embeddingDimension: unknown = app.node.tryGetContext('embeddingDimension');
const dimension = Number(embeddingDimension);
if (embeddingDimension !== undefined && (embeddings !== 'bedrock' || !isTitanDimension(dimension))) {
  throw new Error(
    `Context "embeddingDimension" must be 1024, 512 or 256, with -c embeddings=bedrock (got ${JSON.stringify(embeddingDimension)}).`,
  );
}

// Both or neither: the organisation's existing bucket and KMS key that project memory syncs through.
const memorySyncBucket: unknown = app.node.tryGetContext('memorySyncBucket');
const memorySyncKeyArn: unknown = app.node.tryGetContext('memorySyncKeyArn');
if (memorySyncBucket !== undefined || memorySyncKeyArn !== undefined) {
  if (typeof memorySyncBucket !== 'string' || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(memorySyncBucket)) {
    throw new Error(
      `Give -c memorySyncBucket=NAME (an S3 bucket name) with -c memorySyncKeyArn (got ${JSON.stringify(memorySyncBucket)}).`,
    );
  }
  if (
    typeof memorySyncKeyArn !== 'string' ||
    !/^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[0-9a-f-]{36}$/.test(memorySyncKeyArn)
  ) {
    throw new Error(
      'Give -c memorySyncKeyArn=arn:aws:kms:REGION:ACCOUNT:key/KEY-ID (a KMS key ARN, not an alias) with ' +
        `-c memorySyncBucket (got ${JSON.stringify(memorySyncKeyArn)}).`,
    );
  }
}

// Where the operations alarms notify: an existing SNS topic of the organization.
const alarmTopicArn: unknown = app.node.tryGetContext('alarmTopicArn');
if (
  alarmTopicArn !== undefined &&
  (typeof alarmTopicArn !== 'string' ||
    !/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/.test(alarmTopicArn))
) {
  throw new Error(
    `Give -c alarmTopicArn=arn:aws:sns:REGION:ACCOUNT:TOPIC (got ${JSON.stringify(alarmTopicArn)}).`,
  );
}

// Where people sign in: the organization's OpenID Connect provider, or (none of the three) a
// Cognito user pool the service stack creates.
const signInIssuer = signInIssuerFrom(
  app.node.tryGetContext('signInIssuer'),
  app.node.tryGetContext('signInClientId'),
  app.node.tryGetContext('signInClientSecretArn'),
);

// Two stacks because they live differently: the data stack (table, key) is retained and rarely
// changes; the service stack can be replaced at will. The service receives the data resources as
// objects, and CDK turns them into cross-stack references (so the data stack deploys first).
const data = new DataStack(app, 'MeridianData', {
  stackName: `meridian-${stage}-data`,
  description: `Meridian data: table, memory bucket and key, retained (${stage})`,
  stageName: stage,
});

const domain = customDomainFrom(
  app.node.tryGetContext('domainName'),
  app.node.tryGetContext('certificateArn'),
);

new ServiceStack(app, 'MeridianService', {
  stackName: `meridian-${stage}-service`,
  description: `Meridian remote MCP server (${stage})`,
  domainName: domain?.domainName,
  // Imported by ARN: a plain string, so the stack that scopes it adds no cross-stack reference.
  certificate: domain && Certificate.fromCertificateArn(data, 'ApiCertificate', domain.certificateArn),
  defaultTimezone: timezone,
  allowedOrigins: String(app.node.tryGetContext('allowedOrigins') ?? '')
    .split(',')
    .filter((origin) => origin.trim() !== ''),
  syncRate: syncMinutes === undefined ? undefined : Duration.minutes(Number(syncMinutes)),
  table: data.table,
  dataKey: data.key,
  memoryBucket: data.memoryBucket,
  auditExportBucket: data.auditExportBucket,
  googleOAuthClient:
    typeof googleClientId === 'string' && typeof googleClientSecret === 'string'
      ? { clientId: googleClientId, clientSecret: googleClientSecret }
      : undefined,
  outlookApp: outlookAppFrom(
    app.node.tryGetContext('outlookClientId'),
    app.node.tryGetContext('outlookAuthority'),
  ),
  embeddings:
    embeddings === 'bedrock'
      ? { model: 'bedrock', ...(isTitanDimension(dimension) ? { dimension } : {}) }
      : { model: 'local' },
  memorySync:
    typeof memorySyncBucket === 'string' && typeof memorySyncKeyArn === 'string'
      ? { bucketName: memorySyncBucket, keyArn: memorySyncKeyArn }
      : undefined,
  alarmTopicArn: typeof alarmTopicArn === 'string' ? alarmTopicArn : undefined,
  signInIssuer,
});

// cdk-nag 3 is a policy-validation plugin: findings go to the validation report, and an
// unacknowledged error fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));

/** The custom domain of the API and its ACM certificate, from context; none without a domain name. */
function customDomainFrom(
  domainName: unknown,
  certificateArn: unknown,
): { domainName: string; certificateArn: string } | undefined {
  if (domainName === undefined && certificateArn === undefined) return undefined;
  if (
    typeof domainName !== 'string' ||
    !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domainName) ||
    typeof certificateArn !== 'string' ||
    !/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36}$/.test(certificateArn)
  ) {
    throw new Error(
      'Give both -c domainName=mcp.example.com (lower case) and -c certificateArn=arn:aws:acm:REGION:ACCOUNT:certificate/ID ' +
        `(an ACM certificate for that name, in the stack's region) (got ${JSON.stringify({ domainName, certificateArn })}).`,
    );
  }
  return { domainName, certificateArn };
}

/** The Microsoft app registration for Outlook calendars, from context; none without a client id. */
function outlookAppFrom(clientId: unknown, authority: unknown): OutlookApp | undefined {
  if (clientId === undefined) {
    if (authority !== undefined) throw new Error('-c outlookAuthority=… needs -c outlookClientId=… too.');
    return undefined;
  }
  if (
    typeof clientId !== 'string' ||
    clientId.trim() === '' ||
    (authority !== undefined && typeof authority !== 'string')
  ) {
    throw new Error(
      'Give -c outlookClientId=<Application (client) ID> (and optionally -c outlookAuthority=https://login.microsoftonline.com/<tenant>).',
    );
  }
  return { clientId, ...(typeof authority === 'string' ? { authority } : {}) };
}
