/**
 * Firmware over the air (docs/protocol.md "Firmware over the air"). The platform announces a
 * package with `otaNotify`; the lock pulls it in chunks with `otaChunkRequest` (offset in bytes), each
 * answered by one `otaChunk` (base64, OTA_CHUNK_BYTES at most, so every downlink stays within
 * MAX_PAYLOAD_BYTES); the lock verifies the SHA-256 of the package, then its vendor signature and manifest
 * (`signature` failure when they do not hold: a tampered image is never flashed), reports `otaStatus` VERIFIED, then UPDATING, flashes and
 * reboots; UPDATED is decided by its next heartbeat's firmwareVersion. `otaAbort` tells a lock to drop a job.
 */
import { z } from 'zod';
import { text } from '../api/input.js';

/** Raw bytes per otaChunk (base64: 2732 characters; the envelope stays under 4096 bytes). */
export const OTA_CHUNK_BYTES = 2048;
/** Largest firmware package, bytes (8 MiB). */
export const OTA_MAX_PACKAGE_BYTES = 8 * 1024 * 1024;

const jobId = z.number().int().min(1).max(2 ** 31 - 1);

/** Why a lock gave up an update (its own report), or why the platform failed it. */
export const OTA_FAILURE_REASONS = ['checksum', 'signature', 'battery', 'flash', 'oldVersion', 'timeout', 'storage', 'other'] as const;
export type OtaFailureReason = (typeof OTA_FAILURE_REASONS)[number];

/** Uplink: the lock asks for the bytes at `offset` of job `jobId`. */
export const otaChunkRequestData = z.object({ jobId, offset: z.number().int().min(0).max(2 ** 31 - 1) });
/** Uplink: the lock's progress after the download (VERIFIED: hash matches; UPDATING: flashing now; FAILED with a reason). */
export const otaStatusData = z.object({
  jobId,
  state: z.enum(['VERIFIED', 'UPDATING', 'FAILED']),
  reason: z.enum(OTA_FAILURE_REASONS).optional(),
  detail: text().max(200).optional(),
});

/** Downlinks of the transfer (not commands: they are not queued, each answers the lock's last uplink). */
export const otaDownlinkData = {
  otaNotify: z.object({
    jobId, version: z.string().min(1).max(32), size: z.number().int().min(1),
    /** 64 hex digits. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    chunkSize: z.number().int().min(1),
  }),
  otaChunk: z.object({ jobId, offset: z.number().int().min(0), data: z.string(), last: z.boolean() }),
  otaAbort: z.object({ jobId, reason: z.enum(['canceled', 'finished', 'unknown']) }),
} as const;
export type OtaDownlinkType = keyof typeof otaDownlinkData;
export const OTA_DOWNLINK_TYPES = Object.keys(otaDownlinkData) as OtaDownlinkType[];
