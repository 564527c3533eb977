import { DEVICE_KINDS, type DeviceKindKey, type Thresholds } from '@smart/contracts';
import { and, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import { notDeleted } from '../../platform/sql';
import { device } from './tables';

/** how often the devices' view is read again whole (a change made on this server applies at once) */
const DEVICE_REFRESH_MS = 10_000;
/** an unknown device is looked for again in a fresh read of the view when it is older than this */
const UNKNOWN_REREAD_MS = 1_000;

/** What ingestion needs to know of a device. */
export interface DeviceInfo {
  id: string;
  tenantId: string;
  kind: DeviceKindKey;
  name: string;
  secret: string;
  thresholds: Thresholds | null;
  responsibleId: string | null;
  metrics: Set<string>;
}

/**
 * Every live device that has a secret (what ingestion and the broker need of it), held in memory and read
 * again whole every DEVICE_REFRESH_MS in the background, and at once (awaited) after a device was changed
 * on this server. A known device costs a map lookup; an unknown one has the view read again when it is
 * older than a second (`getAfresh`), so a device added on another server is known at its first message
 * and a flood of unknown devices or wrong credentials costs one read a second at most. A device changed on
 * another server is known here within DEVICE_REFRESH_MS.
 */
export class DeviceDirectory {
  private byKey = new Map<string, DeviceInfo>();
  private readAt = 0;
  /** bumped by every local change; a read started before it does not make the view current */
  private wanted = 1;
  private have = 0;
  private reading: Promise<boolean> | undefined;
  /** when an unknown device last had the view read again (`getAfresh`) */
  private triedAt = 0;

  constructor(
    private db: Db,
    private log: FastifyBaseLogger,
  ) {}

  forget() {
    this.wanted++;
  }

  /** Makes sure the view is current: awaited the first time and after a local change, else refreshed behind. */
  async ready(): Promise<void> {
    const outdated = this.have < this.wanted;
    if (!outdated && Date.now() - this.readAt < DEVICE_REFRESH_MS) return;
    const reading = this.readOnce();
    if (outdated) {
      const read = await reading;
      // a change made while that read ran: read once more (a failed read serves the previous view)
      if (read && this.have < this.wanted) await this.ready();
    }
  }

  /** The live device of a tenant with this serial: from the view, made current first (`ready`), else afresh. */
  async find(tenantId: string, serial: string): Promise<DeviceInfo | null> {
    await this.ready();
    return this.get(tenantId, serial) ?? (await this.getAfresh(tenantId, serial));
  }

  get(tenantId: string, serial: string): DeviceInfo | null {
    return this.byKey.get(`${tenantId}\u0000${serial}`) ?? null;
  }

  /**
   * A device the view does not hold, once more from a fresh read when the view is older than
   * UNKNOWN_REREAD_MS (a device just added on another server is known at its first message); a flood of
   * unknown senders costs one read of the devices a second at most.
   */
  async getAfresh(tenantId: string, serial: string): Promise<DeviceInfo | null> {
    const now = Date.now();
    if (now - Math.max(this.readAt, this.triedAt) < UNKNOWN_REREAD_MS) return null;
    this.triedAt = now;
    await this.readOnce();
    return this.get(tenantId, serial);
  }

  /** a read of the view, shared by all who ask while it runs */
  private readOnce(): Promise<boolean> {
    if (!this.reading) {
      const generation = this.wanted;
      this.reading = this.read(generation).finally(() => {
        this.reading = undefined;
      });
    }
    return this.reading;
  }

  private async read(generation: number): Promise<boolean> {
    try {
      const rows = await this.db
        .select({
          id: device.id,
          tenantId: device.tenantId,
          kind: device.kind,
          name: device.name,
          serial: device.serial,
          secret: device.secret,
          thresholds: device.thresholds,
          responsibleId: device.responsibleId,
        })
        .from(device)
        .where(and(notDeleted(device.isDeleted), isNotNull(device.secret)));
      const next = new Map<string, DeviceInfo>();
      for (const row of rows) {
        if (!row.secret) continue;
        let thresholds: Thresholds | null = null;
        try {
          thresholds = row.thresholds ? JSON.parse(String(row.thresholds)) : null;
        } catch {}
        const kind = String(row.kind) as DeviceKindKey;
        next.set(`${row.tenantId}\u0000${row.serial}`, {
          id: String(row.id),
          tenantId: String(row.tenantId),
          kind,
          name: String(row.name),
          secret: String(row.secret),
          thresholds,
          responsibleId: row.responsibleId ? String(row.responsibleId) : null,
          metrics: new Set(DEVICE_KINDS[kind]?.metrics ?? []),
        });
      }
      this.byKey = next;
      this.readAt = Date.now();
      this.have = Math.max(this.have, generation);
      return true;
    } catch (err) {
      // the previous view stays; the next lookup tries again
      this.log.error({ err }, 'telemetry devices could not be read');
      if (!this.readAt) throw err;
      return false;
    }
  }
}
