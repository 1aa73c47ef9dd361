'use client';
import { createContext, type ReactNode, useContext } from 'react';

/** The API's base URL, read on the server at request time (API_URL) and handed to the client. */
const ApiUrlContext = createContext('http://localhost:4000');

export function ApiUrlProvider({ value, children }: { value: string; children: ReactNode }) {
  return <ApiUrlContext.Provider value={value}>{children}</ApiUrlContext.Provider>;
}

export const useApiUrl = () => useContext(ApiUrlContext);
