// Digests
