/**
 * The organization read model (migrations/013_organization.sql), inline: each row is written by
 * its command's own statement, whole, from the event alone (nothing to read: `touches` is empty).
 *
 * - WorkshopDefined, WorkshopRenamed (stream `workshop-<code>`) → `workshops` row (code, name, updated_at).
 * - TeamDefined, TeamChanged (stream `team-<code>`) → `teams` row (code, name, workshop_code, leaders, updated_at), and
 *   the dated `team_workshops` (migrations/017): TeamDefined from the beginning ('-infinity'); a move from its
 *   `workshopFrom`; a TeamChanged without the field (recorded before moves were dated) from the beginning, as then.
 * - MembershipStarted (stream `member-<phone>`) → `team_memberships` row (phone, valid_from) open (valid_to null);
 *   MembershipEnded → the same row with its valid_to (the event carries the membership's team and first day);
 *   both with the membership's coefficient (系数, hundredths; absent in the event: 100, migrations/021).
 * - DeviceWorkshopSet (stream `device-<deviceNo>`) → `device_workshops` row, deleted when the workshop is null.
 * Timestamps are ISO 8601 text (UTC), dates `YYYY-MM-DD`.
 */
import type { EventData } from '../events/catalog.ts';
import type { Projection, RowChange } from './projection.ts';
import { COEFFICIENT_DEFAULT } from '../domain/crew-split.ts';
import { utcIso } from '../time.ts';

/** A team's first workshop row counts from the beginning of time. */
const FROM_THE_BEGINNING = '-infinity';

export const organizationProjection: Projection = {
  name: 'organization',
  mode: 'inline',
  tables: [
    { name: 'workshops', key: ['code'], columns: ['code', 'name', 'updated_at'] },
    { name: 'teams', key: ['code'], columns: ['code', 'name', 'workshop_code', 'leaders', 'updated_at'] },
    { name: 'team_workshops', key: ['team_code', 'valid_from'], columns: ['team_code', 'valid_from', 'workshop_code'] },
    { name: 'team_memberships', key: ['phone', 'valid_from'], columns: ['phone', 'valid_from', 'team_code', 'valid_to', 'coefficient'] },
    { name: 'device_workshops', key: ['device_no'], columns: ['device_no', 'workshop_code', 'set_at'] },
  ],
  eventTypes: ['WorkshopDefined', 'WorkshopRenamed', 'TeamDefined', 'TeamChanged', 'MembershipStarted', 'MembershipEnded', 'DeviceWorkshopSet'],
  touches: () => [],
  apply(event): RowChange[] {
    switch (event.type) {
      case 'WorkshopDefined':
      case 'WorkshopRenamed': {
        const d = event.data as EventData<'WorkshopDefined'>;
        return [{ table: 'workshops', key: [d.code], row: { code: d.code, name: d.name, updated_at: utcIso(d.at) } }];
      }
      case 'TeamDefined':
      case 'TeamChanged': {
        const d = event.data as EventData<'TeamChanged'>;
        const team: RowChange = { table: 'teams', key: [d.code], row: { code: d.code, name: d.name, workshop_code: d.workshopCode, leaders: d.leaders, updated_at: utcIso(d.at) } };
        if (d.workshopFrom === null) return [team]; // no move
        const from = d.workshopFrom ?? FROM_THE_BEGINNING;
        return [team, { table: 'team_workshops', key: [d.code, from], row: { team_code: d.code, valid_from: from, workshop_code: d.workshopCode } }];
      }
      case 'MembershipStarted': {
        const d = event.data as EventData<'MembershipStarted'>;
        return [
          {
            table: 'team_memberships',
            key: [d.phone, d.validFrom],
            row: { phone: d.phone, valid_from: d.validFrom, team_code: d.teamCode, valid_to: null, coefficient: d.coefficient ?? COEFFICIENT_DEFAULT },
          },
        ];
      }
      case 'MembershipEnded': {
        const d = event.data as EventData<'MembershipEnded'>;
        return [{ table: 'team_memberships', key: [d.phone, d.validFrom], row: { phone: d.phone, valid_from: d.validFrom, team_code: d.teamCode, valid_to: d.validTo, coefficient: d.coefficient ?? COEFFICIENT_DEFAULT } }];
      }
      case 'DeviceWorkshopSet': {
        const d = event.data as EventData<'DeviceWorkshopSet'>;
        return [
          {
            table: 'device_workshops',
            key: [d.deviceNo],
            row: d.workshopCode === null ? null : { device_no: d.deviceNo, workshop_code: d.workshopCode, set_at: utcIso(d.at) },
          },
        ];
      }
      default:
        return [];
    }
  },
};
