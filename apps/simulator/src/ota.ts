/**
 * The lock side of a firmware update (docs/protocol.md "Firmware over the air"), free of any transport:
 * on otaNotify it asks for the bytes from the offset it already holds (a download survives sleep and a
 * retry of the same job: nothing restarts from zero), at most `chunksPerWake` chunks per wake; once
 * complete it checks the SHA-256 of the package, then, as a lock's bootloader would, the package's vendor
 * signature with the keys it trusts and its manifest (its own model, the notified version, the image's
 * size and SHA-256): a package that fails is reported FAILED `signature` and never flashed.
 * Otherwise it reports VERIFIED then UPDATING and asks to reboot into the new version.
 * Failures at `failureRate` per attempt (one of `failures`): the battery dies mid-download (the lock
 * goes silent for `outageMs`), a bad checksum (reported FAILED), a reboot into the old version.
 */
import { createHash } from 'node:crypto';
import { FirmwarePackageError, firmwareProblemMessage, protocol } from '@iot/contract';
import { demoVendorKey, type VendorKey, verifyFirmwarePackage } from '@iot/contract/firmware-signing';
import type { Random } from './types.js';

export const OTA_FAILURES = ['batteryDies', 'badChecksum', 'oldVersion'] as const;
export type OtaFailure = (typeof OTA_FAILURES)[number];

export interface OtaBehaviour {
  /** Chance that an update attempt fails (default 0). */
  failureRate?: number;
  /** Failures to pick from, uniformly (default all three). */
  failures?: readonly OtaFailure[];
  /** Chunks a sleeping lock fetches per wake (default unlimited). */
  chunksPerWake?: number;
  /** How long a lock whose battery died stays silent, ms (default 60 s). */
  outageMs?: number;
  /** Reboot time after flashing, ms (default 1000). */
  rebootMs?: number;
}

type StatusData = { jobId: number; state: 'VERIFIED' | 'UPDATING' | 'FAILED'; reason?: protocol.OtaFailureReason; detail?: string };
/** What the lock does next. */
export type OtaAction =
  | { kind: 'request'; data: { jobId: number; offset: number } }
  | { kind: 'status'; data: StatusData }
  | { kind: 'reboot'; afterMs: number }
  | { kind: 'outage'; durationMs: number };

interface Job { jobId: number; version: string; size: number; sha256: string; parts: Buffer[]; received: number; failure?: OtaFailure; over: boolean }

export class LockOta {
  private job: Job | undefined;
  private chunksThisWake = 0;
  /** The version the lock boots into after its next reboot; undefined: no flash pending. */
  pendingVersion: string | undefined;
  /** The behaviour in force (tests may change it between attempts). */
  readonly behaviour: Required<OtaBehaviour>;

  /** `trust`: the lock's model and the vendor keys burnt into it (default: the demo vendor key). */
  constructor(private readonly random: Random, behaviour: OtaBehaviour = {}, private readonly trust: { model: string; vendorKeys?: readonly VendorKey[] } = { model: '' }) {
    this.behaviour = { failureRate: 0, failures: OTA_FAILURES, chunksPerWake: Number.POSITIVE_INFINITY, outageMs: 60_000, rebootMs: 1000, ...behaviour };
  }

  /** Bytes held of the current job (tests). */
  get received(): number {
    return this.job?.received ?? 0;
  }

  /** An OTA downlink arrived; `current`: the running firmware version. */
  handle(type: protocol.OtaDownlinkType, data: Record<string, unknown>, current: string): OtaAction[] {
    if (type === 'otaNotify') return this.notify(protocol.otaDownlinkData.otaNotify.parse(data), current);
    if (type === 'otaChunk') return this.chunk(protocol.otaDownlinkData.otaChunk.parse(data));
    if (this.job?.jobId === (data as { jobId?: number }).jobId) this.job = undefined;
    return [];
  }

  /** The lock woke up (its heartbeat went out): continue an unfinished download. */
  woke(): OtaAction[] {
    this.chunksThisWake = 0;
    const job = this.job;
    return job && !job.over && job.received < job.size ? [this.request(job)] : [];
  }

  /** No chunk came for the last request: ask again (the platform may have restarted). */
  retry(): OtaAction[] {
    const job = this.job;
    return job && !job.over && job.received < job.size && this.chunksThisWake < this.behaviour.chunksPerWake ? [this.request(job)] : [];
  }

  private notify(data: { jobId: number; version: string; size: number; sha256: string }, current: string): OtaAction[] {
    if (data.version === current) return [];
    const same = this.job && this.job.jobId === data.jobId && this.job.sha256 === data.sha256;
    if (!same || this.job?.over) {
      const kept = same && this.job ? this.job : undefined;
      const failure = this.random() < this.behaviour.failureRate
        ? this.behaviour.failures[Math.floor(this.random() * this.behaviour.failures.length)] : undefined;
      // A retried job keeps the bytes it holds (a checksum failure discarded them already).
      this.job = { jobId: data.jobId, version: data.version, size: data.size, sha256: data.sha256, parts: kept?.parts ?? [], received: kept?.received ?? 0, failure, over: false };
    }
    const job = this.job as Job;
    if (job.received >= job.size) return this.finish(job);
    return [this.request(job)];
  }

  private request(job: Job): OtaAction {
    this.chunksThisWake++;
    return { kind: 'request', data: { jobId: job.jobId, offset: job.received } };
  }

  private chunk(data: { jobId: number; offset: number; data: string }): OtaAction[] {
    const job = this.job;
    if (!job || job.over || job.jobId !== data.jobId || data.offset !== job.received) return [];
    const bytes = Buffer.from(data.data, 'base64');
    job.parts.push(bytes);
    job.received += bytes.length;
    if (job.failure === 'batteryDies' && job.received * 2 >= job.size) {
      job.failure = undefined; // it happens once: after the outage the download resumes from here
      return [{ kind: 'outage', durationMs: this.behaviour.outageMs }];
    }
    if (job.received < job.size) return this.chunksThisWake < this.behaviour.chunksPerWake ? [this.request(job)] : [];
    return this.finish(job);
  }

  private finish(job: Job): OtaAction[] {
    const image = Buffer.concat(job.parts);
    if (job.failure === 'badChecksum' && image.length > 0) image[0] = (image[0] as number) ^ 0xff;
    if (createHash('sha256').update(image).digest('hex') !== job.sha256) {
      job.parts = [];
      job.received = 0;
      job.over = true;
      return [{ kind: 'status', data: { jobId: job.jobId, state: 'FAILED', reason: 'checksum' } }];
    }
    job.over = true;
    try {
      verifyFirmwarePackage(image, this.trust.vendorKeys ?? [demoVendorKey()], { model: this.trust.model, version: job.version });
    } catch (error) {
      if (!(error instanceof FirmwarePackageError)) throw error;
      job.parts = [];
      job.received = 0;
      const detail = firmwareProblemMessage(error.problem, error.detail)['en-US'].slice(0, 200);
      return [{ kind: 'status', data: { jobId: job.jobId, state: 'FAILED', reason: 'signature', detail } }];
    }
    this.pendingVersion = job.failure === 'oldVersion' ? undefined : job.version;
    job.parts = [];
    job.received = 0;
    return [
      { kind: 'status', data: { jobId: job.jobId, state: 'VERIFIED' } },
      { kind: 'status', data: { jobId: job.jobId, state: 'UPDATING' } },
      { kind: 'reboot', afterMs: this.behaviour.rebootMs },
    ];
  }
}
