import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { McpApi } from '../../../lib/constructs/mcp-api.js';

/** A stack with two inline functions (no bundling) standing for the MCP and sign-in functions. */
function stackWithFunctions() {
  const stack = new Stack(new App(), 'Api');
  const fn = (id: string) =>
    new LambdaFunction(stack, id, {
      runtime: Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: Code.fromInline('export const handler = () => {};'),
    });
  return { stack, mcp: fn('Mcp'), signIn: fn('SignIn') };
}

/** Each route key of the template with the logical id of the function its integration invokes. */
function routesToFunctions(template: Template): string[] {
  const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
  return Object.values(template.findResources('AWS::ApiGatewayV2::Route'))
    .map((route) => {
      const target = route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
      const integration = integrations[target['Fn::Join'][1][1].Ref]!;
      const [functionId] = (integration.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] })[
        'Fn::GetAtt'
      ];
      return `${route.Properties.RouteKey as string} -> ${functionId.replace(/[0-9A-F]{8}$/, '')}`;
    })
    .sort();
}

/**
 * A cycle of resources that depend on each other (Ref, Fn::GetAtt, DependsOn), as CloudFormation
 * would refuse it ("Circular dependency between resources"), or [] when there is none.
 */
function dependencyCycle(template: Template): string[] {
  const resources = template.toJSON().Resources as Record<string, { DependsOn?: string[] }>;
  const dependencies = (id: string): string[] => {
    const found = new Set(resources[id]!.DependsOn ?? []);
    JSON.stringify(resources[id], (key, value) => {
      if (key === 'Ref' && typeof value === 'string' && value in resources) found.add(value);
      if (key === 'Fn::GetAtt' && Array.isArray(value) && value[0] in resources) found.add(value[0]);
      return value;
    });
    return [...found];
  };
  const done = new Set<string>();
  const visit = (id: string, path: string[]): string[] => {
    if (path.includes(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return [];
    for (const next of dependencies(id)) {
      const cycle = visit(next, [...path, id]);
      if (cycle.length > 0) return cycle;
    }
    done.add(id);
    return [];
  };
  for (const id of Object.keys(resources)) {
    const cycle = visit(id, []);
    if (cycle.length > 0) return cycle;
  }
  return [];
}

describe('McpApi', () => {
  describe('with a sign-in function', () => {
    it('routes the authorization server’s metadata and every /oauth/ path to it, the rest to the MCP function', () => {
      const { stack, mcp, signIn } = stackWithFunctions();

      new McpApi(stack, 'McpApi', { handler: mcp, signInHandler: signIn });

      expect(routesToFunctions(Template.fromStack(stack))).toEqual(
        [
          'POST /mcp -> Mcp',
          'OPTIONS /mcp -> Mcp',
          'GET /health -> Mcp',
          'GET /.well-known/oauth-protected-resource -> Mcp',
          'OPTIONS /.well-known/oauth-protected-resource -> Mcp',
          'GET /.well-known/oauth-protected-resource/mcp -> Mcp',
          'OPTIONS /.well-known/oauth-protected-resource/mcp -> Mcp',
          'GET /.well-known/oauth-authorization-server -> SignIn',
          'OPTIONS /.well-known/oauth-authorization-server -> SignIn',
          'GET /.well-known/openid-configuration -> SignIn',
          'OPTIONS /.well-known/openid-configuration -> SignIn',
          'ANY /oauth/{proxy+} -> SignIn',
        ].sort(),
      );
    });

    it('can give both functions the host root without a dependency cycle', () => {
      const { stack, mcp, signIn } = stackWithFunctions();
      const api = new McpApi(stack, 'McpApi', { handler: mcp, signInHandler: signIn });

      mcp.addEnvironment('MERIDIAN_PUBLIC_URL', api.baseUrl);
      signIn.addEnvironment('MERIDIAN_PUBLIC_URL', api.baseUrl);

      const template = Template.fromStack(stack);
      const apiId = stack.getLogicalId(api.httpApi.node.defaultChild as CfnElement);
      expect(api.baseUrl).not.toMatch(/\/$/);
      template.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: { MERIDIAN_PUBLIC_URL: { 'Fn::GetAtt': [apiId, 'ApiEndpoint'] } } },
      });
      expect(dependencyCycle(template)).toEqual([]);
    });
  });

  it('refuses a custom domain without its certificate', () => {
    const { stack, mcp } = stackWithFunctions();

    expect(() => new McpApi(stack, 'McpApi', { handler: mcp, domainName: 'mcp.example.com' })).toThrow(
      /domainName and certificate/,
    );
  });
});
