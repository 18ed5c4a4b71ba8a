/** D37: the header an MCP server's credential travels in when none is named. */
export const DEFAULT_CREDENTIAL_HEADER = 'Authorization';

/** D37: a bare token goes as `Bearer <token>`; a value naming its scheme goes as given. */
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
