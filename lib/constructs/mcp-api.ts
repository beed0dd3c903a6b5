import { Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  DomainName,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { PROTECTED_RESOURCE_METADATA_PATH } from '../../lambdas/mcp/http/protected-resource.js';

export interface McpApiProps {
  /**
   * The function that answers MCP requests, `GET /health` and the protected resource metadata
   * (`/.well-known/oauth-protected-resource…`).
   */
  readonly handler: IFunction;

  /**
   * The function that is Meridian's OAuth authorization server: its metadata
   * (`/.well-known/oauth-authorization-server`, `/.well-known/openid-configuration`) and every
   * path under `/oauth/`.
   *
   * @default - none: only the MCP function's routes exist
   */
  readonly signInHandler?: IFunction;

  /**
   * A custom domain (`mcp.example.com`) the API is served at, with `certificate`. The
   * `execute-api` endpoint is then turned off, so that the domain is the one origin clients and
   * tokens name.
   *
   * @default - none: the API's own `https://<id>.execute-api.<region>.amazonaws.com`
   */
  readonly domainName?: string;

  /**
   * The ACM certificate for `domainName`, in the stack's region.
   *
   * @default - none; required with `domainName`
   */
  readonly certificate?: ICertificate;
}

/**
 * Stage-wide throttling. An MCP client sends a handful of requests per tool call; these limits
 * leave room for a team of agents while capping what a leaked key or a runaway loop can cost.
 */
const THROTTLE = { rateLimit: 50, burstLimit: 100 };

/**
 * The router's paths (lambdas/mcp/http/route-http-request.ts), spelled here because importing
 * the router would load the MCP SDK into every synth; the deploy rehearsal serves these routes
 * with the bundled handler, so a path that drifts apart fails it.
 */
const MCP_PATH = '/mcp';
const HEALTH_PATH = '/health';
/** The paths of OAuth metadata that browser-based clients read cross-origin (and preflight). */
const PROTECTED_RESOURCE_PATHS = [
  PROTECTED_RESOURCE_METADATA_PATH,
  `${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`,
];
const AUTHORIZATION_SERVER_PATHS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
];

/**
 * One JSON object a line, with the HTTP API's own context variables (the REST API's standard
 * fields name variables an HTTP API does not have). No headers, no body: requests carry API keys
 * and calendar data.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    httpMethod: '$context.httpMethod',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/**
 * The public HTTP face of Meridian: an HTTP API (API Gateway v2) whose `$default` stage serves
 * every route at the host root, so the OAuth well-known documents sit where MCP clients look for
 * them and `WWW-Authenticate` reaches them unrenamed (ADR 0025). Each route is proxied to its
 * function; nothing else is routed, so any other path or method is refused by API Gateway
 * (404) without invoking a function. OPTIONS is routed wherever a browser-based client may
 * preflight, so the functions answer it with the CORS they answer locally.
 */
export class McpApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogGroup: LogGroup;
  /** The custom domain, when one is given (its `regionalDomainName` is the DNS target). */
  readonly domain?: DomainName;
  /**
   * The host-root URL without a trailing slash (`https://abc.execute-api.eu-west-1.amazonaws.com`,
   * or `https://<domainName>`). Built from the API's own attribute, not from the stage or the
   * routes, so the functions' environment can hold it without a dependency cycle.
   */
  readonly baseUrl: string;
  /** The full URL clients configure as their MCP server: `baseUrl` + `/mcp`. */
  readonly endpointUrl: string;

  constructor(scope: Construct, id: string, props: McpApiProps) {
    super(scope, id);
    if ((props.domainName === undefined) !== (props.certificate === undefined))
      throw new Error('McpApi: give both domainName and certificate, or neither.');

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Meridian remote MCP server',
      // The stage below carries throttling and access logs, which the default one cannot.
      createDefaultStage: false,
      disableExecuteApiEndpoint: props.domainName !== undefined,
    });
    if (props.domainName && props.certificate)
      this.domain = new DomainName(this, 'DomainName', {
        domainName: props.domainName,
        certificate: props.certificate,
      });

    this.accessLogGroup = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      // `$default` is served at the root of the host: no stage name in any path.
      stageName: '$default',
      autoDeploy: true,
      throttle: THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogGroup),
        format: ACCESS_LOG_FORMAT,
      },
      ...(this.domain ? { domainMapping: { domainName: this.domain } } : {}),
    });

    this.routeMcp(props.handler);
    if (props.signInHandler) this.routeSignIn(props.signInHandler);

    this.baseUrl = props.domainName ? `https://${props.domainName}` : this.httpApi.apiEndpoint;
    this.endpointUrl = `${this.baseUrl}${MCP_PATH}`;
    this.acknowledgeFindings();
  }

  private routeMcp(handler: IFunction): void {
    const mcp = new HttpLambdaIntegration('Mcp', handler);
    this.httpApi.addRoutes({
      path: MCP_PATH,
      methods: [HttpMethod.POST, HttpMethod.OPTIONS],
      integration: mcp,
    });
    this.httpApi.addRoutes({ path: HEALTH_PATH, methods: [HttpMethod.GET], integration: mcp });
    for (const path of PROTECTED_RESOURCE_PATHS)
      this.httpApi.addRoutes({ path, methods: [HttpMethod.GET, HttpMethod.OPTIONS], integration: mcp });
  }

  private routeSignIn(handler: IFunction): void {
    const signIn = new HttpLambdaIntegration('SignIn', handler);
    for (const path of AUTHORIZATION_SERVER_PATHS)
      this.httpApi.addRoutes({ path, methods: [HttpMethod.GET, HttpMethod.OPTIONS], integration: signIn });
    this.httpApi.addRoutes({ path: '/oauth/{proxy+}', methods: [HttpMethod.ANY], integration: signIn });
  }

  private acknowledgeFindings(): void {
    Validations.of(this).acknowledge({
      id: 'AwsSolutions::AwsSolutions-APIG4',
      reason:
        'Each MCP request is authenticated inside the function, before any tool runs: a Bearer API ' +
        "key checked against Meridian's own key store (only a SHA-256 of each key's secret is " +
        'stored) or an OAuth access token from its own authorization server; a missing, unknown or ' +
        'revoked credential gets 401 with the challenge MCP clients follow. An API Gateway ' +
        'authorizer cannot check API keys, and its own 401 would carry no resource_metadata. ' +
        'GET /health, the OAuth metadata documents and the sign-in endpoints are public by design ' +
        'and return no data of the organization.',
    });
  }
}
