#!/usr/bin/env bash
# Generates the TLS test certificates committed next to this script (run once; the outputs are
# committed, tests never run it). Needs the `openssl` command line tool (1.1.1 or 3.x).
#
#   ca.pem / ca-key.pem                 "WireKit Test CA", the root the tests trust explicitly
#   server.pem / server-key.pem         localhost, 127.0.0.1, ::1; signed by the CA; until 2124
#   server-chain.pem                    server.pem followed by ca.pem
#   expired.pem / expired-key.pem       same names, signed by the CA, valid only in 2020
#   wrong-host.pem / wrong-host-key.pem wrong.example only; signed by the CA; until 2124
#   untrusted.pem / untrusted-key.pem   self-signed localhost, 127.0.0.1, ::1; until 2124
#   *.pin                               "sha256/<base64>" of each certificate's SubjectPublicKeyInfo,
#                                       computed here by openssl so tests cross-check our SHA-256
set -euo pipefail
cd "$(dirname "$0")"

START=20240101000000Z   # a fixed past start: small clock skews never make a cert "not yet valid"
FAR=21240101000000Z
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

newkey() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

pin() {
    printf 'sha256/%s\n' "$(openssl x509 -in "$1" -pubkey -noout \
        | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)"
}

# Signs a new key's certificate through `openssl ca`, which takes explicit start and end dates
# (needed for the expired certificate). $1 name, $2 CN, $3 extension lines, $4 start, $5 end,
# $6 "self" for a self-signed certificate, "ca" for one signed by ca.pem.
sign() {
    local name=$1 cn=$2 ext=$3 start=$4 end=$5 issuer=$6
    newkey "$name-key.pem"
    rm -rf "$WORK/db"
    mkdir -p "$WORK/db"
    : >"$WORK/db/index.txt"
    openssl rand -hex 16 >"$WORK/db/serial"
    {
        echo "[ca]";           echo "default_ca = test_ca"
        echo "[test_ca]";      echo "database = $WORK/db/index.txt"
        echo "new_certs_dir = $WORK/db"; echo "serial = $WORK/db/serial"
        echo "default_md = sha256";      echo "policy = any"
        echo "unique_subject = no";      echo "x509_extensions = ext"
        echo "[any]";          echo "commonName = supplied"
        echo "[ext]";          echo "$ext"
        echo "[req]";          echo "distinguished_name = dn"; echo "prompt = no"
        echo "[dn]";           echo "CN = $cn"
    } >"$WORK/$name.cnf"
    openssl req -new -key "$name-key.pem" -config "$WORK/$name.cnf" -out "$WORK/$name.csr"
    local signer=(-cert ca.pem -keyfile ca-key.pem)
    [ "$issuer" = self ] && signer=(-selfsign -keyfile "$name-key.pem")
    openssl ca -batch -notext -config "$WORK/$name.cnf" "${signer[@]}" \
        -startdate "$start" -enddate "$end" -in "$WORK/$name.csr" -out "$name.pem" 2>/dev/null
}

LEAF="basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash"
SIGNED="$LEAF
authorityKeyIdentifier = keyid"
LOCAL="subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1"

sign ca "WireKit Test CA" "basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash" "$START" "$FAR" self
sign server localhost "$SIGNED
$LOCAL" "$START" "$FAR" ca
sign expired localhost "$SIGNED
$LOCAL" 20200101000000Z 20201231000000Z ca
sign wrong-host wrong.example "$SIGNED
subjectAltName = DNS:wrong.example" "$START" "$FAR" ca
sign untrusted localhost "$LEAF
$LOCAL" "$START" "$FAR" self
cat server.pem ca.pem >server-chain.pem

for c in ca server expired wrong-host untrusted; do pin "$c.pem" >"$c.pin"; done
echo "certificates written to $(pwd)"
