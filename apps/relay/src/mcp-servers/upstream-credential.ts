/** D37: the header an MCP server's credential travels in when none is named. */
export const DEFAULT_CREDENTIAL_HEADER = 'Authorization';

/**
 * The header the relay sends an MCP server its credential in (D37). In `Authorization` a bare
 * token goes as `Bearer <token>`; a value that already names its scheme (`Basic …`, `Bearer …`,
 * anything with a space) goes as given, as does the value of any other header.
 */
export function upstreamCredentialHeader(
  header: string | undefined,
  credential: string,
): { header: string; value: string } {
  const name = header ?? DEFAULT_CREDENTIAL_HEADER;
  const isAuthorization = name.toLowerCase() === 'authorization';
  return {
    header: name,
    value: isAuthorization && !credential.includes(' ') ? `Bearer ${credential}` : credential,
  };
}
