import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  applyLiveMessage,
  listsShowing,
  onListChange,
  onLiveEvent,
  setLiveStatus,
} from './live-cache';
import { queryClient } from './query';
import type { StreamEvent } from '../../contract/schemas';

const event = (routingKey: string, changes: Partial<StreamEvent> = {}): StreamEvent => ({
  id: 'e1',
  seq: 1,
  routingKey,
  assetId: 'a1',
  cageMeshId: null,
  actorId: 'u2',
  actorEmail: 'dev@avatar.studio',
  data: {},
  createdAt: '2026-11-23T08:00:00.000Z',
  ...changes,
});

afterEach(() => {
  setLiveStatus(null);
  queryClient.clear();
  vi.restoreAllMocks();
});

describe('the connection', () => {
  it('has everything on screen read again when it is back after it was lost, not when it first opens', () => {
    const told: string[] = [];
    const stop = onListChange((shows) => told.push(shows === 'all' ? 'all' : 'some'));
    queryClient.setQueryData(['assets', 'a1', 'public'], { id: 'a1' });
    setLiveStatus('connecting');
    setLiveStatus('connected');
    expect(told).toEqual([]);
    expect(queryClient.getQueryState(['assets', 'a1', 'public'])?.isInvalidated).toBe(false);
    // A server stopping: the change it told may have been read from it as it went away.
    setLiveStatus('reconnecting');
    setLiveStatus('connected');
    expect(told).toEqual(['all']);
    expect(queryClient.getQueryState(['assets', 'a1', 'public'])?.isInvalidated).toBe(true);
    setLiveStatus('offline');
    setLiveStatus('connected');
    expect(told).toEqual(['all', 'all']);
    stop();
  });
});

describe('a live event', () => {
  it('makes the asset’s reads stale and the dashboard counts when the type changes', () => {
    queryClient.setQueryData(['assets', 'a1', 'public'], { id: 'a1' });
    queryClient.setQueryData(['assets', 'a2', 'public'], { id: 'a2' });
    queryClient.setQueryData(['asset-counts'], []);
    applyLiveMessage({ type: 'event', event: event('asset.locked.v1') });
    expect(queryClient.getQueryState(['assets', 'a1', 'public'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['assets', 'a2', 'public'])?.isInvalidated).toBe(false);
    expect(queryClient.getQueryState(['asset-counts'])?.isInvalidated).toBe(false);
    applyLiveMessage({ type: 'event', event: event('asset.type-or-gender-changed.v1') });
    expect(queryClient.getQueryState(['asset-counts'])?.isInvalidated).toBe(true);
  });

  it('tells the lists that show what changed, and the screens that listen', () => {
    const lists: string[] = [];
    const events: string[] = [];
    const stopLists = onListChange((shows) => {
      for (const endpoint of ['v1/assets', 'v1/tags', 'v1/cage-meshes', 'v1/morphed-asset-queue']) {
        if (shows === 'all' || shows(endpoint)) lists.push(endpoint);
      }
    });
    const stopEvents = onLiveEvent((e) => events.push(e.routingKey));
    applyLiveMessage({
      type: 'event',
      event: event('asset.cage-mesh-updated.v1', { assetId: null, cageMeshId: 'c1' }),
    });
    expect(lists).toEqual(['v1/cage-meshes']);
    lists.length = 0;
    applyLiveMessage({ type: 'event', event: event('asset.morph-queue-entry-created.v1') });
    expect(lists).toEqual(['v1/morphed-asset-queue']);
    lists.length = 0;
    applyLiveMessage({ type: 'reset' });
    expect(lists).toHaveLength(4);
    expect(events).toEqual(['asset.cage-mesh-updated.v1', 'asset.morph-queue-entry-created.v1']);
    stopLists();
    stopEvents();
  });

  it('reaches the asset lists for asset events', () => {
    const shows = listsShowing(event('asset.deleted.v1'));
    expect(
      ['v1/assets', 'private/v1/application-assets', 'v1/user-assets', 'v1/tags'].map(shows),
    ).toEqual([true, true, true, true]);
    expect(shows('v1/cage-meshes')).toBe(false);
  });

  it('reaches the activity log with every event, and user lists with user administration', () => {
    for (const key of ['asset.locked.v1', 'cage-mesh-updated.v1', 'tag.renamed.v1']) {
      expect(listsShowing(event(key))('v1/activity')).toBe(true);
    }
    const shows = listsShowing(event('user.role-changed.v1', { assetId: null, userId: 'u3' }));
    expect(['private/v1/users', 'v1/activity', 'v1/assets'].map(shows)).toEqual([
      true,
      true,
      false,
    ]);
    expect(listsShowing(event('tag.created.v1', { assetId: null }))('v1/tags')).toBe(true);
  });

  it('reaches the cage mesh and morphed asset lists and the Trash when one is trashed, restored or purged', () => {
    const endpoints = ['v1/cage-meshes', 'private/v1/morphed-assets', 'v1/trash', 'v1/assets'];
    for (const verb of ['deleted', 'restored', 'purged']) {
      const mesh = event(`cage-mesh.${verb}.v1`, { assetId: null, cageMeshId: 'c1' });
      expect(endpoints.map(listsShowing(mesh))).toEqual([true, false, true, false]);
      const morphed = event(`morphed-asset.${verb}.v1`, { assetId: null, morphedAssetId: 'm1' });
      expect(endpoints.map(listsShowing(morphed))).toEqual([false, true, true, false]);
    }
  });

  it('reaches the invitations and users lists when one is sent, sent again, revoked or accepted', () => {
    const endpoints = ['private/v1/invitations', 'private/v1/users', 'v1/assets'];
    for (const key of ['user.invited.v1', 'user.invitation-accepted.v1']) {
      const sent = event(key, { assetId: null, invitationId: 'i1' });
      expect(endpoints.map(listsShowing(sent))).toEqual([true, true, false]);
    }
    const disabled = event('user.disabled.v1', { assetId: null });
    expect(endpoints.map(listsShowing(disabled))).toEqual([false, true, false]);
  });
});
