/** `useNarrow()`: true while the window is phone-wide (under 768 px), for layouts CSS alone cannot switch. */
import { onBeforeUnmount, ref } from 'vue';

export function useNarrow() {
  const mq = window.matchMedia('(max-width: 767px)');
  const narrow = ref(mq.matches);
  const update = () => (narrow.value = mq.matches);
  mq.addEventListener('change', update);
  onBeforeUnmount(() => mq.removeEventListener('change', update));
  return narrow;
}
