/**
 * Crew work under racing submissions: A's crew line naming B and B's own line of the same product, sent at once
 * (several rounds, on fresh days), never both count B. The lines counting people are a fact guarded in the append
 * (commands/facts.ts): whichever commits second is decided again, and is refused (B: CREW_LINE_REPORTED) or leaves
 * B out (A's line then counts A alone). Runs on PGlite and PostgreSQL (the group commit may put both in one batch).
 */
import { expect, it } from 'vitest';
import { A, B, useWeldingDay } from './helpers.ts';

const t = useWeldingDay();

it('A naming B and B reporting the product at once: B is counted exactly once', async () => {
  let sessions = t.day.sessions;
  for (let round = 0; round < 4; round++) {
    if (round > 0) {
      const date = `2026-03-0${3 + round}`;
      t.app.clock.set(`${date}T08:00:00+08:00`);
      const a = await t.day.w.A.start('焊机 01');
      const b = await t.day.w.B.start('焊机 01');
      t.app.clock.set(`${date}T16:00:00+08:00`);
      await t.day.w.A.finish('焊机 01');
      await t.day.w.B.finish('焊机 01');
      sessions = { ...sessions, A: a.body.sessionId, B: b.body.sessionId };
    }
    const [a, b] = await Promise.all([
      t.day.w.A.submit(sessions.A, [{ productId: t.day.productId, finishedQty: 100, defectiveQty: 0, crew: [A, B] }]),
      t.day.w.B.submit(sessions.B, [{ productId: t.day.productId, finishedQty: 40, defectiveQty: 0 }]),
    ]);
    expect(a.status).toBe(201);
    const countsB = (a.body.crewLines?.[0]?.shares ?? []).some((s: any) => s.phone === B);
    if (countsB) expect([b.status, b.body.error?.code]).toEqual([422, 'CREW_LINE_REPORTED']);
    else expect(b.status).toBe(201);
  }
});
