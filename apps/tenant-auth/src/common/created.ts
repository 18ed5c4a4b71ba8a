import { FastifyReply } from 'fastify';

/** D31: 201 with `Location` of the new resource under `/tenant-auth/v1/<collection>`. */
export function created<T extends { id: string }>(
  reply: FastifyReply,
  collection: string,
  resource: T,
): T {
  void reply.status(201).header('location', `/tenant-auth/v1/${collection}/${resource.id}`);
  return resource;
}
