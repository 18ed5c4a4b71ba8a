import { FuzzPlatform, startFuzzPlatform } from './fuzz-platform';
import { FuzzRunner } from './fuzz-runner';
import { FuzzWorld } from './fuzz-world';
import { OpenApiDocument } from './fuzz-operations';

export interface FuzzSession {
  platform: FuzzPlatform;
  world: FuzzWorld;
  runner: FuzzRunner;
  close(): Promise<void>;
}

/** The platform, its callers and a runner over the document the platform itself serves. */
export async function startFuzzSession(): Promise<FuzzSession> {
  const platform = await startFuzzPlatform();
  try {
    const answer = await platform.send({ method: 'GET', url: '/openapi.json', headers: {} });
    if (answer.status !== 200) {
      throw new Error(`GET /openapi.json: ${answer.status}`);
    }
    const world = await FuzzWorld.create(platform);
    const runner = new FuzzRunner(platform, world, JSON.parse(answer.body) as OpenApiDocument);
    return { platform, world, runner, close: () => platform.close() };
  } catch (error) {
    await platform.close();
    throw error;
  }
}
