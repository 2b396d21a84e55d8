import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound, unauthorized } from '../../lib/errors.ts';
import { authenticate, bearerToken } from '../../lib/auth-context.ts';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { findPicture, uploadMedia, type StoredPicture } from './service.ts';

/** A base64 picture of 2 MB is about 2.7 MB of JSON: over the app-wide 1 MB limit, so this call gets 3 MB. */
export const MEDIA_UPLOAD_BODY_LIMIT = 3 * 1024 * 1024;

const idPart = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/, 'must be 1 to 40 letters, digits, - or _, starting with a letter or digit');
const picParams = z.object({ orgId: idPart, mediaId: idPart });
/** The icon form of spec section 7; the size names which of the brand's icon sizes is asked for. */
const iconParams = picParams.extend({
  siteId: idPart,
  size: z.string().regex(/^\d{1,4}(x\d{1,4})?$/, 'must be a size such as 32 or 32x32'),
});

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

/**
 * Brand logos and icons are shown before login, so anyone may fetch them. Every other picture (a
 * time-clock photo, a photo of stock) needs a valid token of its own organisation, sent as a bearer
 * header (the web app fetches it and shows a blob: URL), never in the URL where logs would keep it.
 */
async function mayFetch(deps: Deps, req: FastifyRequest, pic: StoredPicture, orgId: string): Promise<void> {
  if (pic.purpose === 'logo' || pic.purpose === 'icon') return;
  const token = bearerToken(req.headers.authorization);
  if (!token) throw unauthorized('Please log in first');
  const auth = await authenticate(deps.db, deps.tokens, token);
  // Another organisation's token sees no such picture.
  if (auth.orgId !== orgId) throw notFound('No such picture');
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
    {
      schema: {
        tags: ['media'],
        summary: 'A picture of an organisation: brand logos for anyone, photos with a bearer token of the organisation',
        params: picParams,
      },
    },
    async (req, reply) => {
      const pic = await findPicture(deps.db, req.params);
      await mayFetch(deps, req, pic, req.params.orgId);
      return sendPicture(req, reply, pic);
    },
  );
  typed.get(
    '/api/media/pic/:siteId/:orgId/:mediaId/:size',
    { schema: { tags: ['media'], summary: 'A brand icon of a site', params: iconParams } },
    async (req, reply) => {
      const pic = await findPicture(deps.db, req.params);
      await mayFetch(deps, req, pic, req.params.orgId);
      return sendPicture(req, reply, pic);
    },
  );
}
