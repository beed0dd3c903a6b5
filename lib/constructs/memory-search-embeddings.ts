import { FoundationModel, FoundationModelIdentifier } from 'aws-cdk-lib/aws-bedrock';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { TITAN_EMBED_V2_MODEL_ID, type TitanDimension } from '../../lambdas/adapters/bedrock/titan-model.js';
import { EMBEDDING_DIMENSION_ENV, EMBEDDINGS_ENV } from '../../lambdas/runtime/environment-names.js';

/**
 * How project memory's search embeds text on AWS (context `embeddings`, `embeddingDimension`):
 * the local embedder (nothing to grant) or Amazon Bedrock Titan Text Embeddings v2.
 */
export type MemorySearchEmbeddings =
  | { readonly model: 'local' }
  | { readonly model: 'bedrock'; readonly dimension?: TitanDimension };

/**
 * Lets `grantee` invoke Titan Text Embeddings v2 and nothing else of Bedrock (`bedrock:InvokeModel`
 * on that one foundation model's ARN in the stack's region), and answers the environment that
 * makes the runtime use it. With `local`, grants nothing and sets nothing: the runtime's default.
 *
 * @example
 * const environment = grantMemorySearchEmbeddings(this, role, { model: 'bedrock', dimension: 512 });
 */
export function grantMemorySearchEmbeddings(
  scope: Construct,
  grantee: IGrantable,
  embeddings: MemorySearchEmbeddings,
): Record<string, string> {
  if (embeddings.model === 'local') return {};
  const titan = FoundationModel.fromFoundationModelId(
    scope,
    'TitanEmbeddings',
    new FoundationModelIdentifier(TITAN_EMBED_V2_MODEL_ID),
  );
  Grant.addToPrincipal({ grantee, actions: ['bedrock:InvokeModel'], resourceArns: [titan.modelArn] });
  return {
    [EMBEDDINGS_ENV]: 'bedrock',
    ...(embeddings.dimension === undefined
      ? {}
      : { [EMBEDDING_DIMENSION_ENV]: String(embeddings.dimension) }),
  };
}
