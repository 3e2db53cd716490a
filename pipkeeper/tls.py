"""The self-signed certificate of `pipkeeper serve --https`.

Browsers give a page the camera only when it is served over https (or from this
very machine), so a phone on the LAN needs https for hands-free play. The
certificate is made once and kept in a folder (the user data directory, next to
the default database), the key readable by its owner only. It is made anew when
the names it covers no longer match this machine's (a new LAN address, a renamed
machine), when it nears its end, or when its files are damaged; otherwise every
start serves the same one, so a phone that accepted it once is not asked again.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CERT_FILE = "https-certificate.pem"
KEY_FILE = "https-key.pem"
# Apple's systems refuse a TLS server certificate valid for longer than 825 days.
VALID_DAYS = 825
RENEW_DAYS = 30  # a certificate with fewer days left is made anew
BACKDATE = timedelta(days=1)  # a phone whose clock is a little behind still accepts it
LOOPBACK_NAMES = ("localhost",)
LOOPBACK_IPS = ("127.0.0.1", "::1")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Names:
    """The host names and IP addresses a certificate covers (its subject alternative names)."""

    dns: frozenset[str]
    ips: frozenset[IPAddress]


@dataclass(frozen=True)
class Certificate:
    """A stored certificate: its files, SHA-256 fingerprint (colon-separated hex), the
    names it covers, its last valid moment, and whether it was made by this call."""

    cert_file: Path
    key_file: Path
    fingerprint: str
    names: Names
    not_after: datetime
    made: bool


def machine_names(hostname: str, addresses: Iterable[str]) -> Names:
    """Return the names a certificate for this machine covers: localhost, 127.0.0.1 and
    ::1, *hostname* and *hostname*.local (when it is an ASCII name), and *addresses*.

    Raises ValueError for an address that is not an IP address.
    """
    dns = set(LOOPBACK_NAMES)
    name = hostname.strip().rstrip(".").lower()
    if name and name.isascii() and name not in dns:
        dns |= {name, name if name.endswith(".local") else f"{name}.local"}
    ips = {ipaddress.ip_address(address) for address in (*LOOPBACK_IPS, *addresses)}
    return Names(frozenset(dns), frozenset(ips))


def names_of(cert: x509.Certificate) -> Names:
    """Return the names *cert* covers (empty when it has no subject alternative names)."""
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return Names(frozenset(), frozenset())
    ips = san.get_values_for_type(x509.IPAddress)
    return Names(frozenset(san.get_values_for_type(x509.DNSName)),
                 frozenset(ip for ip in ips if isinstance(ip, IPAddress)))


def ensure_certificate(folder: Path, names: Names, now: datetime | None = None) -> Certificate:
    """Return the certificate kept in *folder* when it covers exactly *names*, its key is
    its own and it is valid for RENEW_DAYS more from *now* (default: the current time);
    otherwise make a new one, store it there (the key with mode 0600) and return it.

    Raises OSError when the folder cannot be read or written.
    """
    now = now or datetime.now(UTC)
    cert_file, key_file = folder / CERT_FILE, folder / KEY_FILE
    cert = _stored(cert_file, key_file, names, now)
    made = cert is None
    if cert is None:
        folder.mkdir(parents=True, exist_ok=True)
        cert = _make(key_file, cert_file, names, now)
    return Certificate(cert_file, key_file, cert.fingerprint(hashes.SHA256()).hex(":").upper(),
                       names_of(cert), cert.not_valid_after_utc, made)


def _stored(cert_file: Path, key_file: Path, names: Names,
            now: datetime) -> x509.Certificate | None:
    """Return the stored certificate if it may be served again, else None.

    Raises OSError for files that exist but cannot be read.
    """
    try:
        cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
        key = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
    except (FileNotFoundError, ValueError, TypeError):
        return None
    if _public_der(key.public_key()) != _public_der(cert.public_key()):
        return None
    if names_of(cert) != names or cert.not_valid_after_utc - now < timedelta(days=RENEW_DAYS):
        return None
    return cert


def _public_der(public_key: object) -> bytes:
    if not isinstance(public_key, ec.EllipticCurvePublicKey):
        return b""
    return public_key.public_bytes(serialization.Encoding.DER,
                                   serialization.PublicFormat.SubjectPublicKeyInfo)


def _make(key_file: Path, cert_file: Path, names: Names, now: datetime) -> x509.Certificate:
    """Make a new key and a certificate of it covering *names*; write both; return the
    certificate. Raises OSError."""
    key = ec.generate_private_key(ec.SECP256R1())
    host = next((n for n in sorted(names.dns) if n not in LOOPBACK_NAMES), "localhost")
    subject = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "pipkeeper"),
                         x509.NameAttribute(NameOID.COMMON_NAME, f"pipkeeper {host}"[:64])])
    start = now - BACKDATE
    alternative = [*(x509.DNSName(n) for n in sorted(names.dns)),
                   *(x509.IPAddress(ip) for ip in sorted(names.ips, key=str))]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject).issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start).not_valid_after(start + timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False,
                                     key_encipherment=False, data_encipherment=False,
                                     key_agreement=False, key_cert_sign=False, crl_sign=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                       critical=False)
        .sign(key, hashes.SHA256())
    )
    # The key first: a server reading the pair between the two writes finds a key that
    # is not its certificate's, and makes a pair of its own.
    _write(key_file, key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()), 0o600)
    _write(cert_file, cert.public_bytes(serialization.Encoding.PEM), 0o644)
    return cert


def _write(path: Path, data: bytes, mode: int) -> None:
    """Write *data* to *path* whole or not at all, the file with *mode* from its start
    (a key is never readable by others, not even for a moment). Raises OSError."""
    aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(aside, mode)  # the umask may have narrowed it
        os.replace(aside, path)
    except BaseException:
        with contextlib.suppress(OSError):
            aside.unlink()
        raise
