import { EventEmitter } from 'node:events';

/** The session entity: who acts, by wallet (walletId is null for a reader without a wallet). */
export interface SessionEntity {
  walletId: string | null;
  userId: string;
}

/** In-process storage events and their payloads (docs/storage.md, "Storage events"). */
export interface StorageEventMap {
  'ipfs:write': { owner: SessionEntity; content: string };
  'ipfs:read': { cid: string; requester: SessionEntity | null };
  'ipfs:pin': { cid: string; owner: string };
  'ipfs:unpin': { cid: string; owner: string };
  'ipfs:pin.verified': { cid: string; owner: string; verified: boolean; timestamp: number };
  'ipfs:pin.failed': { cid: string; owner: string; error: string; timestamp: number };
}

export type StorageEventName = keyof StorageEventMap;

export class StorageEvents {
  private readonly ee = new EventEmitter();
  constructor() {
    this.ee.setMaxListeners(100);
  }
  on<K extends StorageEventName>(name: K, fn: (payload: StorageEventMap[K]) => void) {
    this.ee.on(name, fn);
    return () => this.ee.off(name, fn);
  }
  emit<K extends StorageEventName>(name: K, payload: StorageEventMap[K]) {
    this.ee.emit(name, payload);
  }
}
