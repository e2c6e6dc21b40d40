// Host search objects for the wsconf bridge (spec/protocol.md, "Host search objects").
//
// JSON cannot carry a vector store or an embedder, so a case names them and the bridge builds
// them here: an in-memory vector store (cosine similarity, exact and deterministic) and an
// embedder that counts the letters a-z. Both write what a case may check to the session's hook
// log. The reference implementation builds the same two objects with the same arithmetic.

/**
 * `{"$store": "memory"}`: an in-memory MastraVector. Options: `logWrites` logs every createIndex
 * call ({hook: "vectorStore.createIndexCall"}) and upsert ({hook: "vectorStore.upsert", indexName,
 * ids}); `createIndexThrows: n` makes the first n createIndex calls throw after creating the index (an
 * index that already exists); `upsertFails: n` makes the first n upserts throw before writing.
 */
export function memoryVectorStore(log, options = {}) {
  const indexes = new Map();
  let createIndexCalls = 0;
  let upsertCalls = 0;
  const matches = (meta, filter) => {
    if (!filter) return true;
    for (const [key, cond] of Object.entries(filter)) {
      if (key === '$and') {
        if (!cond.every(f => matches(meta, f))) return false;
      } else if (cond !== null && typeof cond === 'object' && '$exists' in cond) {
        if ((meta[key] !== undefined) !== cond.$exists) return false;
      } else if (meta[key] !== cond) {
        return false;
      }
    }
    return true;
  };
  const index = name => {
    const found = indexes.get(name);
    if (!found) throw new Error(`Index ${name} does not exist`);
    return found;
  };
  return {
    async createIndex({ indexName, dimension }) {
      createIndexCalls += 1;
      if (options.logWrites) log.push({ hook: 'vectorStore.createIndexCall', indexName, dimension });
      if (!indexes.has(indexName)) {
        indexes.set(indexName, new Map());
        log.push({ hook: 'vectorStore.createIndex', indexName, dimension });
      }
      if (createIndexCalls <= (Number(options.createIndexThrows) || 0)) throw new Error(`Index ${indexName} already exists`);
    },
    async upsert({ indexName, vectors, metadata, ids }) {
      upsertCalls += 1;
      if (options.logWrites) log.push({ hook: 'vectorStore.upsert', indexName, ids: [...ids] });
      if (upsertCalls <= (Number(options.upsertFails) || 0)) throw new Error('upsert failed');
      const entries = index(indexName);
      ids.forEach((id, i) => {
        entries.delete(id);
        entries.set(id, { vector: vectors[i], metadata: metadata[i] });
      });
      return ids;
    },
    async query({ indexName, queryVector, topK = 10, filter }) {
      const entries = index(indexName);
      const results = [];
      for (const [id, { vector, metadata }] of entries) {
        if (!matches(metadata, filter)) continue;
        results.push({ id, score: cosine(queryVector, vector), metadata: { ...metadata } });
      }
      results.sort((a, b) => b.score - a.score);
      log.push({ hook: 'vectorStore.query', indexName, topK });
      return results.slice(0, topK);
    },
    async deleteVector({ indexName, id }) {
      indexes.get(indexName)?.delete(id);
    },
    async deleteVectors({ indexName, filter }) {
      const entries = indexes.get(indexName);
      if (!entries) return;
      for (const [id, { metadata }] of [...entries]) if (matches(metadata, filter)) entries.delete(id);
    },
  };
}

/** Cosine similarity, summed in index order; 0 when either vector is all zeros. */
function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (na === 0 || nb === 0) return 0;
  return dot / (Math.sqrt(na) * Math.sqrt(nb));
}

/** The counts of the letters a-z in the lowercased text. */
function letters(text) {
  const v = new Array(26).fill(0);
  for (const ch of text.toLowerCase()) {
    const c = ch.charCodeAt(0) - 97;
    if (ch.length === 1 && c >= 0 && c < 26) v[c]++;
  }
  return v;
}

/** `{"$embedder": "letters", "batch"?: true, "maxBatchSize"?: n, "dropLast"?: n}`: a single-text or a batch
 * embedder; `dropLast` leaves out the last n embeddings of each batch answer (an embedder that answers short). */
export function letterEmbedder(spec, log) {
  if (spec.batch === true) {
    const dropLast = spec.dropLast ?? 0;
    const embed = async texts => {
      log.push({ hook: 'embedder', texts });
      return texts.map(letters).slice(0, Math.max(texts.length - dropLast, 0));
    };
    // maxBatchSize "NaN" is the number NaN (JSON has none), as Number(process.env.X) can give.
    const maxBatchSize = spec.maxBatchSize === 'NaN' ? NaN : spec.maxBatchSize;
    return Object.assign(embed, { batch: true }, maxBatchSize !== undefined ? { maxBatchSize } : {});
  }
  return async text => {
    log.push({ hook: 'embedder', text });
    return letters(text);
  };
}
