/**
 * The notification reactor: an async consumer of the report events that turns them
 * into rows of `notification_outbox`, in the same transaction as its checkpoint, so each event gives its
 * messages exactly once (plus a unique key (event_position, kind, recipient_phone) as a second guard). It never
 * calls the platform: the sender (sender.ts) delivers the rows, so a platform failure can neither fail nor
 * delay a command, nor hold up this consumer.
 *
 * - ReportApproved / ReportRejected → REVIEW_RESULT to the worker.
 * - ReportSubmitted → NEW_REPORT to every administrator (personnel role `admin`).
 * Only when the template is configured (templates.ts) and the recipient has an openid in `platform_accounts`
 * (the account they last logged in with). Events recorded more than MAX_EVENT_AGE_MS before now (a consumer
 * catching up after a long outage, or a fresh checkpoint over old history) give no message: news that late
 * would mislead more than help.
 */
import type pg from 'pg';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { StoredEvent } from '../events/store.ts';
import type { Logger } from '../logger.ts';
import type { AsyncConsumer } from '../projections/consumer.ts';
import { TEMPLATE_PAGES, templateConfigs, templateData, type TemplateConfig, type TemplateName } from './templates.ts';

export const REACTOR_NAME = 'notifications';
/** Events older than this (by recorded time) give no message. */
export const MAX_EVENT_AGE_MS = 24 * 3_600_000;

interface Outgoing {
  event: StoredEvent<any>;
  kind: TemplateName;
  phones: string[];
  fields: (phone: string) => Record<string, string>;
}

async function adminPhones(tx: pg.PoolClient): Promise<string[]> {
  const r = await tx.query(`SELECT phone FROM personnel WHERE role = 'admin' ORDER BY phone`);
  return r.rows.map((x) => x.phone);
}

async function nameOf(tx: pg.PoolClient, phone: string): Promise<string | undefined> {
  const r = await tx.query(`SELECT name FROM personnel WHERE phone = $1 LIMIT 1`, [phone]);
  return r.rows[0]?.name;
}

/**
 * The async consumer `notifications` (module docstring): ReportApproved / ReportRejected → REVIEW_RESULT to the
 * worker, ReportSubmitted → NEW_REPORT to every admin, written as `notification_outbox` rows in the consumer's
 * transaction; only for configured templates, recipients with an openid, and events at most 24 h old.
 */
export function notificationReactor(deps: { config: Config; clock: Clock; log?: Logger }): AsyncConsumer {
  const templates = templateConfigs(deps.config.templates);
  return {
    name: REACTOR_NAME,
    eventTypes: ['ReportSubmitted', 'ReportApproved', 'ReportRejected'],
    async handle(tx, events) {
      const now = deps.clock.now();
      const outgoing: Outgoing[] = [];
      for (const e of events) {
        if (now.getTime() - new Date(e.recordedAt).getTime() > MAX_EVENT_AGE_MS) continue;
        const d = e.data;
        if ((e.type === 'ReportApproved' || e.type === 'ReportRejected') && templates.REVIEW_RESULT) {
          const approved = e.type === 'ReportApproved';
          outgoing.push({
            event: e,
            kind: 'REVIEW_RESULT',
            phones: [d.employeePhone],
            fields: () => ({
              result: approved ? '已通过' : '已驳回',
              reportDate: d.reportDate,
              comment: approved ? (d.correction ? '审核通过（明细已修正）' : '审核通过') : d.reason,
              reviewer: e.metadata.actorName ?? '',
            }),
          });
        } else if (e.type === 'ReportSubmitted' && templates.NEW_REPORT) {
          const worker = (await nameOf(tx, d.employeePhone)) ?? e.metadata.actorName ?? d.employeePhone;
          outgoing.push({
            event: e,
            kind: 'NEW_REPORT',
            phones: await adminPhones(tx),
            fields: () => ({ worker, reportDate: d.reportDate, devices: d.devices.join('、'), submittedAt: d.at }),
          });
        }
      }
      for (const o of outgoing) await enqueue(tx, o, templates[o.kind]!, now);
    },
  };
}

async function enqueue(tx: pg.PoolClient, o: Outgoing, cfg: TemplateConfig, now: Date): Promise<void> {
  if (o.phones.length === 0) return;
  const r = await tx.query(`SELECT phone, openid FROM platform_accounts WHERE phone = ANY($1::text[])`, [o.phones]);
  const openids = new Map<string, string>(r.rows.map((x) => [x.phone, x.openid]));
  for (const phone of o.phones) {
    const openid = openids.get(phone);
    if (!openid) continue;
    await tx.query(
      `INSERT INTO notification_outbox
         (event_position, kind, recipient_phone, openid, template_id, page, data, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
       ON CONFLICT ON CONSTRAINT notification_outbox_once DO NOTHING`,
      [
        o.event.globalPosition,
        o.kind,
        phone,
        openid,
        cfg.templateId,
        TEMPLATE_PAGES[o.kind](o.event.data.reportId),
        JSON.stringify(templateData(cfg, o.fields(phone))),
        now,
      ],
    );
  }
}
