/**
 * The shapes of a master list of reasons by code (components/ReasonList.vue, used by 不良原因 and 停机原因): a reason
 * (code, name, category `K`, active; the service never deletes one), a category as the dialog offers it (its Chinese
 * label, a hint of what it means, the tag's colour) and the source that lists, creates and changes reasons of one
 * kind (the service's GET / POST / PUT of that kind, refusals thrown as the service's sentence).
 */
export interface Reason<K extends string> {
  code: string;
  name: string;
  category: K;
  active: boolean;
}

export interface ReasonCategory<K extends string> {
  value: K;
  label: string;
  hint: string;
  tag: 'danger' | 'warning' | 'info' | 'success' | 'primary';
}

export interface ReasonSource<K extends string> {
  list(): Promise<Reason<K>[]>;
  create(body: { code: string; name: string; category: K }): Promise<Reason<K>>;
  change(code: string, body: { name?: string; category?: K; active?: boolean }): Promise<Reason<K>>;
}
