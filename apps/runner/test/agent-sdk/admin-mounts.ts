import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { AdminSurface, adminFastifyPlugin, adminRequestListener } from '@agp/agent-sdk';
import express from 'express';
import Fastify from 'fastify';

/** The three ways an agent serves the admin surface (specification: mounted at /admin). */
export type AdminMount = 'node' | 'express' | 'fastify';

export interface MountedAdmin {
  url: string;
  close(): Promise<void>;
}

function listening(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function closing(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Serves `surface` at `/admin` of a new server of the given kind, beside an app of its own. */
export async function mountAdmin(kind: AdminMount, surface: AdminSurface): Promise<MountedAdmin> {
  switch (kind) {
    case 'node': {
      const server = createServer(adminRequestListener(surface));
      return { url: `${await listening(server)}/admin`, close: () => closing(server) };
    }
    case 'express': {
      const app = express();
      app.use(adminRequestListener(surface));
      // The application's own JSON routes after the surface: its parser never sees a webhook.
      app.use(express.json());
      app.post('/echo', (request, response) => {
        response.json(request.body);
      });
      const server = createServer(app);
      return { url: `${await listening(server)}/admin`, close: () => closing(server) };
    }
    case 'fastify': {
      const app = Fastify();
      await app.register(adminFastifyPlugin(surface), { prefix: '/admin' });
      app.post('/echo', async (request) => request.body);
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      return { url: `${address}/admin`, close: () => app.close() };
    }
  }
}
