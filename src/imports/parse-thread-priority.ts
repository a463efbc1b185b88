/**
 * Imported first by the parse thread's module (src/imports/parse-worker.ts): lowers that thread's CPU priority
 * by PARSE_THREAD_NICE (nice 0 → 10), so that when the cores are short (several hostile uploads at once, a loaded machine)
 * the event loop — every other request — gets the CPU first and the parse takes what is left (issue #20). The
 * parse still progresses under load: nice 10 weighs about a tenth of a normal thread.
 *
 * Linux only: there a nice value belongs to one thread (setpriority on the calling thread, which libuv's
 * `os.setPriority(0, …)` is); elsewhere it would lower the whole process, so nothing is done. Never throws.
 */
import { getPriority, setPriority } from 'node:os';

/** How much nicer the parse thread is than the process (nice values add, up to 19). */
export const PARSE_THREAD_NICE = 10;

if (process.platform === 'linux') {
  try {
    setPriority(0, Math.min(19, getPriority(0) + PARSE_THREAD_NICE));
  } catch {
    // Not allowed here (a restricted container): the parse runs at the normal priority.
  }
}
