/**
 * The command palette's records: as the user types, the assets, users (by e-mail), tags and
 * applications whose name holds the text, a few of each, read through the lists' own endpoints
 * and their `search` filter, only those the role may read. One request per kind per pause in
 * the typing; a request whose text has changed since is cancelled (the cache cancels a read
 * nobody observes any longer).
 */
import { useQueries } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { anyRowSchema, listPageQuery } from '../../api/lists';
import { queryClient } from '../../api/query';
import { usePermissions } from '../../machines/permissions.view';
import { displayLabel } from '../../ui/dom/list/asset-filters';
import type { Action, Subject } from '../../../contract/ability';
import type { Role } from '../../../contract/schemas';
import { endpoint, ENDPOINTS } from '../../../contract/paths';
import type { ListRow } from '../../../contract/list-query';

/** The pause in the typing after which the records are searched. */
const RECORD_SEARCH_DEBOUNCE_MS = 200;
/** Records shown per kind. */
const RECORDS_PER_KIND = 5;
/** Fewer letters than this find too much to be worth a request. */
const MIN_LENGTH = 2;

type RecordKind = 'assets' | 'users' | 'tags' | 'applications';

/** One record found: what the palette shows and what Enter opens. */
export interface FoundRecord {
  kind: RecordKind;
  id: string;
  label: string;
  /** What tells it apart from another of the same label. */
  detail: string;
  open: () => void;
}

interface RecordSearch {
  records: FoundRecord[];
  /** Still waiting for the pause or for an answer. */
  searching: boolean;
  /** The kinds whose search failed. */
  failed: RecordKind[];
}

type Navigate = ReturnType<typeof useNavigate>;

interface Kind {
  kind: RecordKind;
  endpoint: string;
  needs: readonly [Action, Exclude<Subject, 'all'>];
  /** What the row is known by. */
  label: (row: FoundRow, t: TFunction) => string;
  /** What tells it apart from another row of the same label. */
  detail: (row: FoundRow, t: TFunction) => string;
  open: (navigate: Navigate, row: FoundRow) => Promise<void>;
}

type FoundRow = ListRow & { name?: string; email?: string | null; type?: string; role?: Role };

const named = (row: FoundRow) => row.name ?? row.id;
/** Names need not be unique: the id is what differs. */
const byId = (row: FoundRow) => row.id;
const joined = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(' · ');

const KINDS: readonly Kind[] = [
  {
    kind: 'assets',
    endpoint: endpoint(ENDPOINTS.assets),
    needs: ['read', 'Asset'],
    label: named,
    detail: (row) => joined(row.type && displayLabel(row.type), row.id),
    open: (navigate, row) => navigate({ to: '/assets/$assetId', params: { assetId: row.id } }),
  },
  {
    kind: 'users',
    endpoint: endpoint(ENDPOINTS.users),
    needs: ['read', 'User'],
    // The users screen's own words (its feature stays out of the shell's bundle).
    label: (row, t) => row.email ?? t('users.noEmail'),
    // An e-mail is one person's; an account without one is told apart by its id.
    detail: (row, t) =>
      joined(row.role && t(`users.roles.${row.role}`), row.email ? undefined : row.id),
    open: (navigate, row) => navigate({ to: '/users/$userId', params: { userId: row.id } }),
  },
  {
    kind: 'tags',
    endpoint: endpoint(ENDPOINTS.tags),
    needs: ['read', 'Tag'],
    label: named,
    detail: byId,
    // A tag has no page of its own: the tags list, searched for it.
    open: (navigate, row) =>
      navigate({
        to: '/tags',
        search: { filter: { search: row.name } },
      }),
  },
  {
    kind: 'applications',
    endpoint: endpoint(ENDPOINTS.applications),
    needs: ['read', 'Application'],
    label: named,
    detail: byId,
    open: (navigate, row) =>
      navigate({
        to: '/applications/$applicationId/assets',
        params: { applicationId: row.id },
      }),
  },
];

/** `value`, once it has stayed the same for `ms`. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The records matching `text` (trimmed), searched once the typing pauses. */
export function useRecordSearch(text: string): RecordSearch {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const can = usePermissions();
  const typed = text.trim();
  const settled = useSettled(typed, RECORD_SEARCH_DEBOUNCE_MS);
  const kinds = KINDS.filter(({ needs: [action, subject] }) => can(action, subject));
  const enabled = settled.length >= MIN_LENGTH;
  // The palette renders outside the screens' QueryClientProvider: the client is passed.
  const results = useQueries(
    {
      queries: kinds.map((kind) => ({
        ...listPageQuery(
          kind.endpoint,
          { page: 1, limit: RECORDS_PER_KIND, filter: { search: settled } },
          anyRowSchema,
        ),
        enabled,
        retry: false,
      })),
    },
    queryClient,
  );
  if (typed.length < MIN_LENGTH) return { records: [], searching: false, failed: [] };
  const current = typed === settled;
  return {
    records: current
      ? kinds.flatMap((kind, index) =>
          (results[index]?.data?.data ?? []).map((row: FoundRow) => ({
            kind: kind.kind,
            id: row.id,
            label: kind.label(row, t),
            detail: kind.detail(row, t),
            open: () => void kind.open(navigate, row),
          })),
        )
      : [],
    searching: !current || results.some((result) => result.isFetching),
    failed: current ? kinds.filter((_, index) => results[index]?.isError).map((k) => k.kind) : [],
  };
}
