import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError, EvidenceCopyParams, UploadDoneResponse, UploadRequestBody, UploadResponse, UploadTokenParams, errorResponses } from '@rm/contracts';
import { isInlineType } from '@rm/evidence';
import type { EvidenceStore } from '@rm/storage';
import type { EvidenceDeps } from '../use-cases/evidence-uploads.js';
import { receiveUpload, startUpload } from '../use-cases/evidence-uploads.js';

/** Uploads (a key with reports.submit_report) and kept copies (reports.view_reports); docs/evidence.md. */
export function evidenceRoutes(deps: { evidence: EvidenceDeps; store: EvidenceStore }): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/evidence/uploads',
      {
        config: { permission: 'reports.submit_report' },
        schema: {
          operationId: 'startEvidenceUpload',
          summary: 'Ask for an upload URL for one piece of evidence (to cite with type s3Upload)',
          body: UploadRequestBody,
          response: { 200: UploadResponse, ...errorResponses(true) },
        },
      },
      async (request) => startUpload(deps.evidence, request.body, `${request.protocol}://${request.host}`),
    );

    app.get(
      '/reports/:reportId/evidence/:index',
      {
        config: { permission: 'reports.view_reports' },
        schema: { operationId: 'getEvidenceCopy', summary: 'Our kept copy of a report’s evidence item', params: EvidenceCopyParams, response: { 200: z.any(), ...errorResponses(false) } },
      },
      async (request, reply) => {
        const { reportId, index } = request.params;
        const item = (await deps.store.evidenceOfReports([reportId])).find((i) => i.index === index);
        if (!item || item.state !== 'captured' || item.sha256 === null || item.contentType === null) throw new AppError('NOT_FOUND', `No kept copy of evidence ${index} of report ${reportId}`);
        const bytes = await deps.evidence.blobs.getBlob(item.sha256);
        if (bytes === null) throw new AppError('NOT_FOUND', `No kept copy of evidence ${index} of report ${reportId}`);
        // Served from our origin, never sniffed, never run: a kept "image" that is really a page stays inert.
        return reply
          .header('content-type', item.contentType)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, max-age=300')
          .header('etag', `"${item.sha256}"`)
          .header('x-evidence-sha256', item.sha256)
          .header('content-disposition', isInlineType(item.contentType) ? 'inline' : `attachment; filename="evidence-${reportId.replace(/[^\w.-]/g, '_')}-${index}"`)
          .send(bytes);
      },
    );
  };
}

/**
 * PUT /v1/evidence/uploads/{token}, outside the API-key hook: the signed token is the credential,
 * as a presigned URL's signature is. Its body is any type, read as a stream and counted.
 */
export function evidenceUploadRoute(deps: { evidence: EvidenceDeps }): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    app.put<{ Params: { token: string } }>(
      '/evidence/uploads/:token',
      {
        schema: { operationId: 'putEvidenceUpload', summary: 'Upload the bytes of one piece of evidence (the URL POST /v1/evidence/uploads gave)', params: UploadTokenParams, response: { 200: UploadDoneResponse, ...errorResponses(false) } },
      },
      async (request) => {
        const body = request.body as Readable | undefined;
        if (!body) throw new AppError('BAD_REQUEST', 'Upload body is missing');
        const leave = deps.evidence.gate.enter(request.ip);
        try {
          await receiveUpload(deps.evidence, request.params.token, request.headers['content-type'], body);
        } finally {
          leave();
        }
        return { success: true };
      },
    );
  };
}
