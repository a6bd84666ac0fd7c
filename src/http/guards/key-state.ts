// What the API-key guard learned about the caller, kept on the request for the guards and key-aware routes.
import type { FastifyRequest } from 'fastify';
import type { CallerKey } from '../../contract/services.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: CallerKey;
  }
}

export function keyStateOf(req: FastifyRequest): CallerKey {
  return req.apiKey ?? { status: 'anonymous' };
}
