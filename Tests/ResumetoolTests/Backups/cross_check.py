import hashlib
import sys
# The encrypted fixture read by an independent reader (iphone-backup-decrypt from PyPI):
#   pip install iphone-backup-decrypt; python3 cross_check.py BACKUP PASSWORD
# prints every regular file with its size and the start of its SHA-256. BackupCrossCheckTests runs it.
from iphone_backup_decrypt import EncryptedBackup
b = EncryptedBackup(backup_directory=sys.argv[1], passphrase=sys.argv[2])
b.test_decryption()
with b.manifest_db_cursor() as c:
    c.execute("SELECT domain, relativePath FROM Files WHERE flags=1 AND relativePath NOT LIKE '%missing%' AND relativePath NOT LIKE '%bad-record%' ORDER BY domain, relativePath")
    rows = c.fetchall()
for domain, path in rows:
    data = b.extract_file_as_bytes(path, domain_like=domain) if path != "Documents/empty" else b""
    print(domain, path, len(data), hashlib.sha256(data).hexdigest()[:16])
