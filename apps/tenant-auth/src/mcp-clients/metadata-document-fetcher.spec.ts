import { AddressInfo } from 'node:net';
import { Server, createServer } from 'node:http';

import { MetadataDocumentFetcher } from './metadata-document-fetcher';

/** identity.md I24: a client ID metadata document is fetched only from where it is safe to. */
describe(MetadataDocumentFetcher.name, () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
      res.end(
        JSON.stringify({ client_id: `${base}${req.url}`, redirect_uris: ['https://a.example/cb'] }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('should take only https URLs with a path and nothing hidden in them', () => {
    const sut = new MetadataDocumentFetcher(false);

    expect(sut.isDocumentUrl('https://client.example/oauth/metadata.json')).toBe(true);
    expect(sut.isDocumentUrl('http://client.example/oauth/metadata.json')).toBe(false);
    expect(sut.isDocumentUrl('https://client.example/')).toBe(false);
    expect(sut.isDocumentUrl('https://user:pw@client.example/m.json')).toBe(false);
    expect(sut.isDocumentUrl('https://client.example/a/../m.json')).toBe(false);
    expect(sut.isDocumentUrl('https://client.example/m.json#x')).toBe(false);
    expect(sut.isDocumentUrl('agp_dcr_abc')).toBe(false);
  });

  it('should refuse a document whose host resolves to a loopback address', async () => {
    const sut = new MetadataDocumentFetcher(false);

    await expect(sut.fetch(`https://localhost:1/m.json`)).rejects.toThrow(/refused address/);
  });

  it('should fetch, validate and keep the max-age of a document where private addresses are allowed', async () => {
    const sut = new MetadataDocumentFetcher(true);

    const fetched = await sut.fetch(`${base}/m.json`);

    expect(fetched.metadata.client_id).toBe(`${base}/m.json`);
    expect(fetched.maxAgeSec).toBe(300);
  });
});
