// Recorded listings: nginx 1.22.1 (Debian 12) autoindex HTML, autoindex_format json and dav-ext PROPFIND, and
// Python 3 http.server, captured from the real servers serving Tests/Fixtures plus "IMG 0001 & co.jpg" and a
// "sub/" directory. The Apache sample is written by hand from mod_autoindex's documented FancyIndexing table.
enum RecordedListings {
    static let nginxHTML = #"""
<html>
<head><title>Index of /photos/</title></head>
<body>
<h1>Index of /photos/</h1><hr><pre><a href="../">../</a>
<a href="sub/">sub/</a>                                               22-Nov-2026 20:28                   -
<a href="IMG%200001%20%26%20co.jpg">IMG 0001 &amp; co.jpg</a>                                  22-Nov-2026 20:28             3478530
<a href="motion-photo-v1.jpeg">motion-photo-v1.jpeg</a>                               22-Nov-2026 20:28              153383
<a href="train.jpg">train.jpg</a>                                          22-Nov-2026 20:28             3478530
<a href="train.mov">train.mov</a>                                          22-Nov-2026 20:28             1509892
</pre><hr></body>
</html>
"""#
    static let nginxJSON = #"""
[
{ "name":"sub", "type":"directory", "mtime":"Sun, 22 Nov 2026 20:28:03 GMT" },
{ "name":"IMG 0001 & co.jpg", "type":"file", "mtime":"Sun, 22 Nov 2026 20:28:03 GMT", "size":3478530 },
{ "name":"motion-photo-v1.jpeg", "type":"file", "mtime":"Sun, 22 Nov 2026 20:28:03 GMT", "size":153383 },
{ "name":"train.jpg", "type":"file", "mtime":"Sun, 22 Nov 2026 20:28:03 GMT", "size":3478530 },
{ "name":"train.mov", "type":"file", "mtime":"Sun, 22 Nov 2026 20:28:03 GMT", "size":1509892 }
]
"""#
    static let nginxPROPFIND = #"""
<?xml version="1.0" encoding="utf-8" ?>
<D:multistatus xmlns:D="DAV:">
<D:response>
<D:href>/dav/</D:href>
<D:propstat>
<D:prop>
<D:displayname>dav</D:displayname>
<D:getlastmodified>Sun, 22 Nov 2026 20:28:03 GMT</D:getlastmodified>
<D:resourcetype><D:collection/></D:resourcetype>
<D:lockdiscovery/>
<D:supportedlock>
</D:supportedlock>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
<D:response>
<D:href>/dav/train.mov</D:href>
<D:propstat>
<D:prop>
<D:displayname>train.mov</D:displayname>
<D:getcontentlength>1509892</D:getcontentlength>
<D:getlastmodified>Sun, 22 Nov 2026 20:28:03 GMT</D:getlastmodified>
<D:resourcetype></D:resourcetype>
<D:lockdiscovery/>
<D:supportedlock>
</D:supportedlock>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
<D:response>
<D:href>/dav/IMG%200001%20&amp;%20co.jpg</D:href>
<D:propstat>
<D:prop>
<D:displayname>IMG 0001 &amp; co.jpg</D:displayname>
<D:getcontentlength>3478530</D:getcontentlength>
<D:getlastmodified>Sun, 22 Nov 2026 20:28:03 GMT</D:getlastmodified>
<D:resourcetype></D:resourcetype>
<D:lockdiscovery/>
<D:supportedlock>
</D:supportedlock>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
<D:response>
<D:href>/dav/train.jpg</D:href>
<D:propstat>
<D:prop>
<D:displayname>train.jpg</D:displayname>
<D:getcontentlength>3478530</D:getcontentlength>
<D:getlastmodified>Sun, 22 Nov 2026 20:28:03 GMT</D:getlastmodified>
<D:resourcetype></D:resourcetype>
<D:lockdiscovery/>
<D:supportedlock>
</D:supportedlock>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
<D:response>
<D:href>/dav/motion-photo-v1.jpeg</D:href>
<D:propstat>
<D:prop>
<D:displayname>motion-photo-v1.jpeg</D:displayname>
<D:getcontentlength>153383</D:getcontentlength>
<D:getlastmodified>Sun, 22 Nov 2026 20:28:03 GMT</D:getlastmodified>
<D:resourcetype></D:resourcetype>
<D:lockdiscovery/>
<D:supportedlock>
</D:supportedlock>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
<D:response>
<D:href>/dav/sub/</D:href>
<D:propstat>
<D:prop>
<D:displayname>sub</D:displayname>
<D:getlastmodified>Sun, 22 Nov 2026 20:28:03 GMT</D:getlastmodified>
<D:resourcetype><D:collection/></D:resourcetype>
<D:lockdiscovery/>
<D:supportedlock>
</D:supportedlock>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
</D:multistatus>
"""#
    static let pythonHTML = #"""
<!DOCTYPE HTML>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Directory listing for /</title>
</head>
<body>
<h1>Directory listing for /</h1>
<hr>
<ul>
<li><a href="IMG%200001%20%26%20co.jpg">IMG 0001 &amp; co.jpg</a></li>
<li><a href="motion-photo-v1.jpeg">motion-photo-v1.jpeg</a></li>
<li><a href="sub/">sub/</a></li>
<li><a href="train.jpg">train.jpg</a></li>
<li><a href="train.mov">train.mov</a></li>
</ul>
<hr>
</body>
</html>
"""#
    static let apacheHTML = #"""
<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">
<html>
 <head>
  <title>Index of /photos</title>
 </head>
 <body>
<h1>Index of /photos</h1>
  <table>
   <tr><th valign="top"><img src="/icons/blank.gif" alt="[ICO]"></th><th><a href="?C=N;O=D">Name</a></th><th><a href="?C=M;O=A">Last modified</a></th><th><a href="?C=S;O=A">Size</a></th><th><a href="?C=D;O=A">Description</a></th></tr>
   <tr><th colspan="5"><hr></th></tr>
<tr><td valign="top"><img src="/icons/back.gif" alt="[PARENTDIR]"></td><td><a href="/">Parent Directory</a></td><td>&nbsp;</td><td align="right">  - </td><td>&nbsp;</td></tr>
<tr><td valign="top"><img src="/icons/image2.gif" alt="[IMG]"></td><td><a href="IMG%200001%20%26%20co.jpg">IMG 0001 &amp; co.jpg</a></td><td align="right">2024-11-22 20:28  </td><td align="right">3.3M</td><td>&nbsp;</td></tr>
<tr><td valign="top"><img src="/icons/image2.gif" alt="[IMG]"></td><td><a href="motion-photo-v1.jpeg">motion-photo-v1.jpeg</a></td><td align="right">2024-11-22 20:28  </td><td align="right">150K</td><td>&nbsp;</td></tr>
<tr><td valign="top"><img src="/icons/folder.gif" alt="[DIR]"></td><td><a href="sub/">sub/</a></td><td align="right">2024-11-22 20:28  </td><td align="right">  - </td><td>&nbsp;</td></tr>
<tr><td valign="top"><img src="/icons/image2.gif" alt="[IMG]"></td><td><a href="train.jpg">train.jpg</a></td><td align="right">2024-11-22 20:28  </td><td align="right">3.3M</td><td>&nbsp;</td></tr>
<tr><td valign="top"><img src="/icons/movie.gif" alt="[VID]"></td><td><a href="train.mov">train.mov</a></td><td align="right">2024-11-22 20:28  </td><td align="right">1.4M</td><td>&nbsp;</td></tr>
   <tr><th colspan="5"><hr></th></tr>
</table>
<address>Apache/2.4.57 (Debian) Server at photos.example Port 80</address>
</body></html>
"""#
}
