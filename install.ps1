# Installs the zot release binary for Windows x64:
#   irm https://github.com/zot-dev/zot/releases/latest/download/install.ps1 | iex
# Downloads the zip and SHA256SUMS, verifies the checksum and puts zot.exe in
# %LOCALAPPDATA%\Programs\zot (or $env:ZOT_INSTALL_DIR). Every failure is one sentence and leaves
# nothing behind. The same variables as install.sh: ZOT_INSTALL_BASE, ZOT_INSTALL_VERSION,
# ZOT_INSTALL_DIR, ZOT_INSTALL_TIMEOUT (seconds). Failures throw instead of calling `exit`, which
# would close the PowerShell window of a user who ran the script through `iex`.
function Install-Zot {
  $ErrorActionPreference = 'Stop'
  $ProgressPreference = 'SilentlyContinue'
  function Fail([string]$Message) { throw "zot install: $Message" }

  $releases = 'https://github.com/zot-dev/zot/releases'
  if ($env:ZOT_INSTALL_BASE) { $base = $env:ZOT_INSTALL_BASE.TrimEnd('/') }
  elseif ($env:ZOT_INSTALL_VERSION) { $base = "$releases/download/v$($env:ZOT_INSTALL_VERSION)" }
  else { $base = "$releases/latest/download" }
  $dir = if ($env:ZOT_INSTALL_DIR) { $env:ZOT_INSTALL_DIR } else { Join-Path $env:LOCALAPPDATA 'Programs\zot' }
  $timeout = 30
  if ($env:ZOT_INSTALL_TIMEOUT) {
    if ($env:ZOT_INSTALL_TIMEOUT -notmatch '^[0-9]+$') { Fail "ZOT_INSTALL_TIMEOUT must be a whole number of seconds (got `"$($env:ZOT_INSTALL_TIMEOUT)`")." }
    $timeout = [int]$env:ZOT_INSTALL_TIMEOUT
  }

  $arch = $env:PROCESSOR_ARCHITECTURE
  if ($env:PROCESSOR_ARCHITEW6432) { $arch = $env:PROCESSOR_ARCHITEW6432 }
  if ($arch -ne 'AMD64') {
    Fail "zot has no Windows release for the CPU `"$arch`" (there is an x64 build); build it from source instead (see the README)."
  }
  $target = 'windows-x64'

  function Get-File([string]$Url, [string]$OutFile) {
    try { Invoke-WebRequest -Uri $Url -OutFile $OutFile -UseBasicParsing -TimeoutSec $timeout }
    catch { Fail "could not download $Url ($($_.Exception.Message)); check the connection and ZOT_INSTALL_BASE, then run the installer again." }
  }

  $tmp = Join-Path ([IO.Path]::GetTempPath()) ("zot-install-" + [Guid]::NewGuid().ToString('N'))
  New-Item -ItemType Directory -Path $tmp | Out-Null
  try {
    if ($env:ZOT_INSTALL_VERSION) { $version = $env:ZOT_INSTALL_VERSION }
    else {
      Get-File "$base/VERSION" (Join-Path $tmp 'VERSION')
      $version = "$(Get-Content (Join-Path $tmp 'VERSION') -TotalCount 1)".Trim()
    }
    if ($version -notmatch '^[0-9A-Za-z.-]+$') { Fail "$base/VERSION does not hold a version number; check ZOT_INSTALL_BASE." }

    $archive = "zot-$version-$target.zip"
    Get-File "$base/SHA256SUMS" (Join-Path $tmp 'SHA256SUMS')
    $expected = $null
    foreach ($line in Get-Content (Join-Path $tmp 'SHA256SUMS')) {
      $parts = $line -split '\s+\*?', 2
      if ($parts.Count -eq 2 -and $parts[1] -eq $archive) { $expected = $parts[0].ToLower() }
    }
    if (-not $expected) {
      Fail "zot $version has no release for $target ($archive is not listed in $base/SHA256SUMS); build it from source instead (see the README)."
    }

    [Console]::Error.WriteLine("zot install: downloading $archive")
    $zip = Join-Path $tmp $archive
    Get-File "$base/$archive" $zip
    $actual = (Get-FileHash -Algorithm SHA256 -Path $zip).Hash.ToLower()
    if ($actual -ne $expected) {
      Fail "checksum mismatch for $archive (expected $expected, got $actual): the download is corrupt or was tampered with; nothing was installed."
    }

    $unpacked = Join-Path $tmp 'unpacked'
    try { Expand-Archive -Path $zip -DestinationPath $unpacked }
    catch { Fail "could not unpack $archive ($($_.Exception.Message)); nothing was installed." }
    $binary = Join-Path $unpacked "zot-$version-$target\zot.exe"
    if (-not (Test-Path $binary)) { Fail "$archive holds no zot-$version-$target\zot.exe; nothing was installed." }

    try { New-Item -ItemType Directory -Force -Path $dir | Out-Null }
    catch { Fail "cannot create $dir; set ZOT_INSTALL_DIR to a directory you can write." }
    $dest = Join-Path $dir 'zot.exe'
    # A running zot.exe cannot be overwritten but can be renamed: park it aside, then move the new one in.
    $aside = "$dest.old"
    if (Test-Path $aside) { Remove-Item -Force $aside -ErrorAction SilentlyContinue }
    $parked = $false
    if (Test-Path $dest) {
      try { Move-Item -Force $dest $aside; $parked = $true }
      catch { Fail "cannot replace $dest ($($_.Exception.Message)); close running zot windows or set ZOT_INSTALL_DIR." }
    }
    try { Move-Item $binary $dest }
    catch {
      if ($parked) { Move-Item -Force $aside $dest }
      Fail "cannot write $dest ($($_.Exception.Message)); set ZOT_INSTALL_DIR to a directory you can write."
    }

    [Console]::Error.WriteLine("zot install: installed $(& $dest --version) at $dest")
    $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
    if (-not ((("$userPath;$env:Path") -split ';') -contains $dir)) {
      [Console]::Error.WriteLine("zot install: $dir is not on your PATH; add it with")
      [Console]::Error.WriteLine("  [Environment]::SetEnvironmentVariable('Path', `"$dir;`" + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')")
      [Console]::Error.WriteLine("and open a new terminal.")
    }
  } finally {
    Remove-Item -Recurse -Force $tmp -ErrorAction SilentlyContinue
  }
}

try { Install-Zot }
catch {
  $message = "$($_.Exception.Message)"
  if (-not $message.StartsWith('zot install: ')) { $message = "zot install: $message" }
  [Console]::Error.WriteLine($message)
  $global:LASTEXITCODE = 1
  # Run as a file (powershell -File install.ps1), the exit status tells scripts it failed; under iex
  # there is no script path and no exit, so the user's window stays open.
  if ($PSCommandPath) { exit 1 }
}
