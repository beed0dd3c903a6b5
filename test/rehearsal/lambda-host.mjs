// One rehearsed Lambda function in its own process, as the Lambda runtime hosts it: the bundle
// loaded from its asset folder with only the environment it was spawned with, invoked over IPC.
// Plain JavaScript on purpose: it runs on bare Node, like the runtime, without tsx's loader.
import dns from 'node:dns';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// RFC 6761 §6.3: names under "localhost." resolve to loopback. glibc does not do it, and the AWS
// SDK puts host prefixes on some operations (Step Functions' StartSyncExecution goes to
// "sync-<endpoint host>"), so the rehearsal's endpoints are *.localhost names resolved here.
const systemLookup = dns.lookup;
dns.lookup = (hostname, options, callback) => {
  const done = typeof options === 'function' ? options : callback;
  const settings =
    typeof options === 'function' ? {} : typeof options === 'number' ? { family: options } : options;
  if (!hostname.endsWith('.localhost')) return systemLookup(hostname, options, callback);
  process.nextTick(() =>
    settings.all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4),
  );
};

const [codeDir, handlerSpec, timeoutSeconds, functionArn] = process.argv.slice(2);
const dot = handlerSpec.lastIndexOf('.');
const moduleName = handlerSpec.slice(0, dot);
const exportName = handlerSpec.slice(dot + 1);
// The Node.js runtime tries these extensions in this order.
const file = ['.mjs', '.js', '.cjs']
  .map((ext) => join(codeDir, moduleName + ext))
  .find((path) => existsSync(path));
if (!file) throw new Error(`${handlerSpec}: no ${moduleName}.mjs|.js|.cjs in ${codeDir}`);
const handler = (await import(pathToFileURL(file).href))[exportName];
if (typeof handler !== 'function')
  throw new Error(`${handlerSpec}: ${file} exports no function ${exportName}`);

process.on('message', async ({ id, event }) => {
  const deadline = Date.now() + Number(timeoutSeconds) * 1000;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: functionArn,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: crypto.randomUUID(),
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: 'rehearsal',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    const result = await handler(event, context);
    process.send({ id, result: result === undefined ? null : result });
  } catch (error) {
    // What the Lambda service reports for an unhandled error: its name and message.
    process.send({
      id,
      error: { errorType: error?.name ?? 'Error', errorMessage: error?.message ?? String(error) },
    });
  }
});
// A test run that dies without closing its functions must not leave them behind.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
