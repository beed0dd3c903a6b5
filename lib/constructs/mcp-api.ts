import { Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  EndpointType,
  JsonSchemaType,
  JsonSchemaVersion,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  type Model,
  type RequestValidator,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface McpApiProps {
  /** The function that answers MCP requests (and `GET /health`). */
  readonly handler: IFunction;

  /**
   * API Gateway stage name; it is the first path segment of the endpoint URL.
   *
   * @default 'prod'
   */
  readonly stageName?: string;
}

/**
 * Stage-wide throttling. An MCP client sends a handful of requests per tool call; these limits
 * leave room for a team of agents while capping what a leaked key or a runaway loop can cost.
 */
const THROTTLE = { rateLimit: 50, burstLimit: 100 };

const JSON_RPC_MESSAGE = {
  type: JsonSchemaType.OBJECT,
  required: ['jsonrpc'],
  properties: { jsonrpc: { type: JsonSchemaType.STRING, enum: ['2.0'] } },
};

/**
 * The public HTTP face of Meridian: a regional REST API with `POST /mcp` (the Streamable HTTP
 * endpoint) and `GET /health`, both proxied to one Lambda function. Nothing else is routed, so
 * any other path or method is refused by API Gateway without invoking the function.
 */
export class McpApi extends Construct {
  readonly restApi: RestApi;
  readonly accessLogGroup: LogGroup;
  /** The full URL clients configure as their MCP server, ending in `/mcp`. */
  readonly endpointUrl: string;

  constructor(scope: Construct, id: string, props: McpApiProps) {
    super(scope, id);

    this.accessLogGroup = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.restApi = new RestApi(this, 'RestApi', {
      description: 'Meridian remote MCP server',
      endpointTypes: [EndpointType.REGIONAL],
      // Access and execution logging need the account-level API Gateway role; see the
      // acknowledgement of IAM4 below.
      cloudWatchRole: true,
      deployOptions: {
        stageName: props.stageName ?? 'prod',
        accessLogDestination: new LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        tracingEnabled: true,
        // ERROR, not INFO, and no data trace: request bodies carry calendar data and API keys.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        throttlingRateLimit: THROTTLE.rateLimit,
        throttlingBurstLimit: THROTTLE.burstLimit,
      },
    });

    // No test-invoke permission: the function may be invoked by the deployed stage only.
    const integration = new LambdaIntegration(props.handler, { allowTestInvoke: false });
    this.restApi.root.addResource('mcp').addMethod('POST', integration, {
      requestValidator: this.jsonRpcValidator(),
      requestModels: { 'application/json': this.jsonRpcModel() },
    });
    this.restApi.root.addResource('health').addMethod('GET', integration);

    this.endpointUrl = this.restApi.urlForPath('/mcp');
    this.acknowledgeFindings();
  }

  private jsonRpcValidator(): RequestValidator {
    // A body the model rejects gets the JSON-RPC error a client would get from the server.
    this.restApi.addGatewayResponse('BadRequestBody', {
      type: ResponseType.BAD_REQUEST_BODY,
      statusCode: '400',
      templates: {
        'application/json': JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'Invalid Request: the body must be a JSON-RPC 2.0 message.' },
        }),
      },
    });
    return this.restApi.addRequestValidator('JsonRpcValidator', {
      validateRequestBody: true,
      validateRequestParameters: true,
    });
  }

  /**
   * Only the JSON-RPC envelope is checked here, so junk never reaches the function; the MCP SDK
   * validates each message in full. Arrays are JSON-RPC batches, which older MCP clients send.
   */
  private jsonRpcModel(): Model {
    return this.restApi.addModel('JsonRpcMessage', {
      contentType: 'application/json',
      schema: {
        schema: JsonSchemaVersion.DRAFT4,
        title: 'JsonRpcMessage',
        anyOf: [JSON_RPC_MESSAGE, { type: JsonSchemaType.ARRAY, minItems: 1, items: JSON_RPC_MESSAGE }],
      },
    });
  }

  private acknowledgeFindings(): void {
    const api = Validations.of(this);
    const bearerKey =
      'Each request is authenticated inside the function with a Bearer API key (ARCHITECTURE.md, ' +
      "identity), checked against Meridian's own key store (only a SHA-256 of each key's secret is " +
      'stored) before any tool runs; a missing, unknown or revoked key gets 401. IAM and ' +
      'Cognito authorizers do not fit such keys, and a Lambda authorizer would add a second cold ' +
      'start. GET /health is public on purpose and returns no data.';
    api.acknowledge({ id: 'AwsSolutions::AwsSolutions-APIG4', reason: bearerKey });
    api.acknowledge({
      id: 'AwsSolutions::AwsSolutions-COG4',
      reason: `${bearerKey} A Cognito authorizer arrives with OAuth 2.1 sign-in, not before.`,
    });
    api.acknowledge({
      id: 'AwsSolutions::AwsSolutions-APIG3',
      reason:
        'WAF is a deployment choice, not part of the app: a web ACL costs a monthly fee per ' +
        'deployment, and stage throttling already caps request rates. An organization that wants ' +
        'one associates its own web ACL with the stage.',
    });
    Validations.of(this.restApi).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "API Gateway's CloudWatch role is one per account and region, shared by every REST API " +
        'there, so it must be able to write any API log group; AmazonAPIGatewayPushToCloudWatchLogs ' +
        'is the policy AWS maintains for exactly that role.',
    });
  }
}
