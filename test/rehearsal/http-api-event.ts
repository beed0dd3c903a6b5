import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { REHEARSAL_ACCOUNT } from './intrinsics.js';

/**
 * The payload 2.0 event an HTTP API sends a Lambda proxy integration for one request, as the API
 * Gateway developer guide shows it ("Create AWS Lambda proxy integrations for HTTP APIs"):
 * headers lower-case with repeated values joined by commas, cookies apart, the raw path and
 * query, a text body as is and any other base64-encoded.
 */
export function httpApiEvent(request: {
  routeKey: string;
  stage: string;
  method: string;
  path: string;
  rawQueryString: string;
  headers: IncomingHttpHeaders;
  body: Buffer | undefined;
}): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') cookies = String(value).split(/;\s*/);
    else headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const text = request.body && isText(headers['content-type']);
  const queryStringParameters: Record<string, string> = {};
  new URLSearchParams(request.rawQueryString).forEach((value, name) => {
    queryStringParameters[name] =
      name in queryStringParameters ? `${queryStringParameters[name]},${value}` : value;
  });
  const now = new Date();
  return {
    version: '2.0',
    routeKey: request.routeKey,
    rawPath: request.path,
    rawQueryString: request.rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(request.rawQueryString ? { queryStringParameters } : {}),
    requestContext: {
      accountId: REHEARSAL_ACCOUNT,
      apiId: 'rehearsal',
      domainName: headers.host ?? 'rehearsal',
      domainPrefix: (headers.host ?? 'rehearsal').split('.')[0]!,
      http: {
        method: request.method,
        path: request.path,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: crypto.randomUUID(),
      routeKey: request.routeKey,
      stage: request.stage,
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(request.body
      ? {
          body: text ? request.body.toString('utf8') : request.body.toString('base64'),
          isBase64Encoded: !text,
        }
      : { isBase64Encoded: false }),
  };
}

/** Whether API Gateway passes a body of this type as text (JSON, forms, text/*) rather than base64. */
function isText(contentType: string | undefined): boolean {
  return /^(text\/|application\/(json|x-www-form-urlencoded|[\w.+-]*\+json))/i.test(contentType ?? '');
}
