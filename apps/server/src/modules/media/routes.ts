import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { findPicture, uploadMedia, type StoredPicture } from './service.ts';

/** A base64 picture of 2 MB is about 2.7 MB of JSON: over the app-wide 1 MB limit, so this call gets 3 MB. */
export const MEDIA_UPLOAD_BODY_LIMIT = 3 * 1024 * 1024;

const idPart = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/, 'must be 1 to 40 letters, digits, - or _, starting with a letter or digit');
const picParams = z.object({ orgId: idPart, mediaId: idPart });
/** The icon form of spec section 7; the size names which of the brand's icon sizes is asked for. */
const iconParams = picParams.extend({ siteId: idPart, size: z.string().regex(/^\d{1,4}(x\d{1,4})?$/, 'must be a size such as 32 or 32x32') });

// Media are never changed (a new picture is a new id), so they may be cached for good. Photos of
// people and stock stay out of shared caches; logos and icons are shown before login anyway.
function sendPicture(req: FastifyRequest, reply: FastifyReply, pic: StoredPicture) {
  const etag = `"${pic.id}"`;
  reply
    .header('cache-control', `${pic.purpose === 'photo' ? 'private' : 'public'}, max-age=31536000, immutable`)
    .header('etag', etag)
    .header('x-content-type-options', 'nosniff');
  if (req.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.type(pic.contentType).send(pic.bytes);
}

export function mediaRoutes(app: FastifyInstance, deps: Deps): void {
  // Encapsulated, so the larger body limit applies to the upload only.
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = MEDIA_UPLOAD_BODY_LIMIT;
    });
    registerCall(scope, deps, 'media/upload', ({ auth, body }) => uploadMedia(deps, auth, body));
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/media/pic/:orgId/:mediaId',
    { schema: { tags: ['media'], summary: 'A picture (brand logo, photo) of an organisation', params: picParams } },
    async (req, reply) => sendPicture(req, reply, await findPicture(deps.db, req.params)),
  );
  typed.get(
    '/api/media/pic/:siteId/:orgId/:mediaId/:size',
    { schema: { tags: ['media'], summary: 'A brand icon of a site', params: iconParams } },
    async (req, reply) => sendPicture(req, reply, await findPicture(deps.db, req.params)),
  );
}
