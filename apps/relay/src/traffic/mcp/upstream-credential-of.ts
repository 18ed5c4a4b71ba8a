import { upstreamCredentialHeader } from '../../mcp-servers/upstream-credential';
import { OpenedCredentials } from '../pipeline/opened-credentials';
import { McpServerRoute } from '../pipeline/traffic-directory';
import { UpstreamFailure, UpstreamRequest, serverLabel } from './mcp-upstream';

/** D37: the server's own credential, opened for this request (the agent's token never travels). */
export function upstreamCredentialOf(
  credentials: OpenedCredentials,
  server: McpServerRoute,
): UpstreamRequest['credential'] {
  if (!server.credentialSealed) {
    return undefined;
  }
  let plain: string;
  try {
    plain = credentials.open(server.credentialSealed);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new UpstreamFailure(
      502,
      `${serverLabel(server)}: its credential cannot be opened (${why}); set it again`,
    );
  }
  return upstreamCredentialHeader(server.credentialHeader, plain);
}
