import type { CloudAssembly, SynthesizedStack } from './cloud-assembly.js';

export const REHEARSAL_REGION = 'eu-west-1';
export const REHEARSAL_ACCOUNT = '123456789012';

/** What CloudFormation would report for one resource once created: its Ref and its attributes. */
interface Physical {
  ref: string;
  attributes: Record<string, string>;
}

/**
 * The names CloudFormation would give each resource when it creates the stacks, with a suffix
 * unique to this rehearsal (several rehearsals share one DynamoDB Local). Only the resource types
 * the templates reference need a precise shape; anything else gets a plain name and an ARN.
 */
export class DeployedNames {
  readonly #physical = new Map<string, Physical>();

  constructor(
    readonly assembly: CloudAssembly,
    readonly suffix: string = Math.random().toString(36).slice(2, 10),
  ) {}

  /** The physical resource of `logicalId` in `stack`. */
  physical(stack: SynthesizedStack, logicalId: string): Physical {
    const id = `${stack.id}/${logicalId}`;
    let physical = this.#physical.get(id);
    if (!physical) {
      const resource = stack.resources[logicalId];
      if (!resource) throw new Error(`${stack.id} has no resource ${logicalId}`);
      physical = physicalResource(
        stack.stackName,
        logicalId,
        resource.Type,
        resource.Properties ?? {},
        this.suffix,
      );
      this.#physical.set(id, physical);
    }
    return physical;
  }

  /** The physical resource that a CloudFormation `Ref` value names, by looking it up (e.g. a function ARN → its logical id). */
  logicalIdOf(stack: SynthesizedStack, value: string, attribute = 'Arn'): string | undefined {
    return Object.keys(stack.resources).find((logicalId) => {
      const physical = this.physical(stack, logicalId);
      return physical.ref === value || physical.attributes[attribute] === value;
    });
  }

  /**
   * A template value with its intrinsic functions resolved as CloudFormation would resolve them in
   * this deployment: Ref, Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select, Fn::GetStackOutput (CDK's weak
   * cross-stack references), Fn::ImportValue and the pseudo parameters.
   */
  resolve(stack: SynthesizedStack, value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.resolve(stack, item));
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1) {
      const [name, argument] = entries[0]!;
      switch (name) {
        case 'Ref':
          return this.#ref(stack, argument as string);
        case 'Fn::GetAtt': {
          const [logicalId, attribute] = argument as [string, string];
          return this.#attribute(stack, logicalId, attribute);
        }
        case 'Fn::Join': {
          const [separator, parts] = argument as [string, unknown[]];
          return (this.resolve(stack, parts) as unknown[]).join(separator);
        }
        case 'Fn::Select': {
          const [index, list] = argument as [number, unknown];
          return (this.resolve(stack, list) as unknown[])[Number(index)];
        }
        case 'Fn::Sub':
          return this.#sub(stack, argument);
        case 'Fn::GetStackOutput': {
          const { StackName, OutputName } = argument as { StackName: unknown; OutputName: unknown };
          const source = this.#stackNamed(String(this.resolve(stack, StackName)));
          const output = source.outputs[String(this.resolve(stack, OutputName))];
          if (!output) throw new Error(`${source.stackName} has no output ${String(OutputName)}`);
          return this.resolve(source, output.Value);
        }
        case 'Fn::ImportValue': {
          const exportName = String(this.resolve(stack, argument));
          for (const source of this.assembly.stacks)
            for (const output of Object.values(source.outputs))
              if (output.Export && this.resolve(source, output.Export.Name) === exportName)
                return this.resolve(source, output.Value);
          throw new Error(`No stack exports ${exportName}`);
        }
      }
      if (name.startsWith('Fn::'))
        throw new Error(`The rehearsal cannot resolve ${name} yet (in ${stack.id})`);
    }
    return Object.fromEntries(entries.map(([key, item]) => [key, this.resolve(stack, item)]));
  }

  #stackNamed(stackName: string): SynthesizedStack {
    const stack = this.assembly.stacks.find((candidate) => candidate.stackName === stackName);
    if (!stack) throw new Error(`No stack of the assembly is named ${stackName}`);
    return stack;
  }

  #ref(stack: SynthesizedStack, name: string): string {
    const pseudo: Record<string, string> = {
      'AWS::Region': REHEARSAL_REGION,
      'AWS::AccountId': REHEARSAL_ACCOUNT,
      'AWS::Partition': 'aws',
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::StackName': stack.stackName,
      'AWS::NoValue': '',
    };
    return pseudo[name] ?? this.physical(stack, name).ref;
  }

  #attribute(stack: SynthesizedStack, logicalId: string, attribute: string): string {
    const value = this.physical(stack, logicalId).attributes[attribute];
    if (value === undefined) throw new Error(`The rehearsal does not know ${logicalId}.${attribute}`);
    return value;
  }

  #sub(stack: SynthesizedStack, argument: unknown): string {
    const [text, variables = {}] = (typeof argument === 'string' ? [argument] : argument) as [
      string,
      Record<string, unknown>?,
    ];
    return text.replace(/\$\{([^}!][^}]*)\}/g, (_, name: string) => {
      if (name in variables) return String(this.resolve(stack, variables[name]));
      const [logicalId, attribute] = name.split('.');
      return attribute === undefined
        ? this.#ref(stack, logicalId!)
        : this.#attribute(stack, logicalId!, attribute);
    });
  }
}

function physicalResource(
  stackName: string,
  logicalId: string,
  type: string,
  properties: Record<string, unknown>,
  suffix: string,
): Physical {
  const arn = (service: string, resource: string) =>
    `arn:aws:${service}:${REHEARSAL_REGION}:${REHEARSAL_ACCOUNT}:${resource}`;
  // CloudFormation's generated names: stack name, logical id, a random tail.
  const generated = `${stackName}-${logicalId}-${suffix}`;
  switch (type) {
    case 'AWS::DynamoDB::Table': {
      const name = (properties.TableName as string | undefined) ?? generated;
      return { ref: name, attributes: { Arn: arn('dynamodb', `table/${name}`) } };
    }
    case 'AWS::S3::Bucket': {
      const name = (properties.BucketName as string | undefined) ?? generated.toLowerCase().slice(0, 63);
      return {
        ref: name,
        attributes: { Arn: `arn:aws:s3:::${name}`, DomainName: `${name}.s3.amazonaws.com` },
      };
    }
    case 'AWS::KMS::Key': {
      const id = crypto.randomUUID();
      return { ref: id, attributes: { Arn: arn('kms', `key/${id}`), KeyId: id } };
    }
    case 'AWS::Lambda::Function': {
      const name = (properties.FunctionName as string | undefined) ?? generated.slice(0, 64);
      return { ref: name, attributes: { Arn: arn('lambda', `function:${name}`) } };
    }
    case 'AWS::StepFunctions::StateMachine': {
      const name = (properties.StateMachineName as string | undefined) ?? `${logicalId}-${suffix}`;
      const stateMachineArn = arn('states', `stateMachine:${name}`);
      return { ref: stateMachineArn, attributes: { Arn: stateMachineArn, Name: name } };
    }
    case 'AWS::Logs::LogGroup': {
      const name = (properties.LogGroupName as string | undefined) ?? generated;
      return { ref: name, attributes: { Arn: arn('logs', `log-group:${name}:*`) } };
    }
    case 'AWS::IAM::Role': {
      const name = (properties.RoleName as string | undefined) ?? generated.slice(0, 64);
      return {
        ref: name,
        attributes: { Arn: `arn:aws:iam::${REHEARSAL_ACCOUNT}:role/${name}`, RoleId: name },
      };
    }
    case 'AWS::ApiGatewayV2::Api': {
      // API ids are 10 lower-case letters and digits; ApiEndpoint is the host root, no stage.
      const apiId = `api${suffix}`.slice(0, 10);
      return {
        ref: apiId,
        attributes: {
          ApiEndpoint: `https://${apiId}.execute-api.${REHEARSAL_REGION}.amazonaws.com`,
          ApiId: apiId,
        },
      };
    }
    default:
      return { ref: generated, attributes: { Arn: arn(type.split('::')[1]!.toLowerCase(), generated) } };
  }
}
