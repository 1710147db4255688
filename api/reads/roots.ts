/** The roots tables and the live-root rule over them live in the domain (the roots job announces the live root by the same rule). */
export * from '../../domain/tables/roots.js';
