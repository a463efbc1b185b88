/**
 * The opening guide for the mini-program's developer (issue #16), in Chinese: how to send the token, which
 * operation each scan label calls, the login steps, what to do on 401, 409, 429 and 503, and the simulator's
 * conventions. It is the description of the OpenAPI document (HTML, which OpenAPI's CommonMark allows) and the
 * first section of `/api/docs`. The README's "For the mini-program's developer" says the same in English.
 */
export const GUIDE_HTML = `<h2 id="guide">接入指南（小程序开发者先读这里）</h2>
<h3>1. 令牌</h3>
<p>登录成功后，除登录、健康检查、文档和设备码图片外，每个请求都带请求头
<code>Authorization: Bearer &lt;token&gt;</code>。令牌有效期由服务的 <code>TOKEN_TTL</code> 决定（默认 7 天），
以登录回答中的 <code>expiresAt</code> 为准。切换角色（<code>POST /api/auth/switch-role</code>）得到新令牌，旧令牌仍然有效到期。</p>
<h3>2. 登录的三种回答</h3>
<p><code>POST /api/auth/platform-login</code>，请求体 <code>{code, phoneCode}</code>（<code>wx.login</code> 的 code 与
<code>getPhoneNumber</code> 的 code；旧版可用 <code>{code, encryptedData, iv}</code>）。回答的 <code>status</code>：</p>
<table><tr><th>status</th><th>含义</th><th>下一步</th></tr>
<tr><td><code>ok</code></td><td>已登录：<code>token</code>、<code>expiresAt</code>、<code>person</code>、<code>role</code>、<code>roles</code></td><td>保存令牌</td></tr>
<tr><td><code>choose_phone</code></td><td>微信给出多个已登记的手机号：<code>ticket</code>、<code>phones</code></td><td>让用户选手机号，<code>POST /api/auth/platform-login/complete {ticket, phone}</code></td></tr>
<tr><td><code>choose_role</code></td><td>该手机号有多个角色：<code>ticket</code>、<code>person</code>、<code>roles</code></td><td>让用户选角色，<code>POST /api/auth/platform-login/complete {ticket, role}</code></td></tr>
</table>
<p>登录票据 5 分钟内有效，只能用一次。选了手机号之后，如果这个手机号有多个角色，<code>/complete</code> 会再次回答
<code>choose_role</code>，并带一张新票据：用新票据再调用一次 <code>/complete {ticket, role}</code>（也可以第一次就同时提交
<code>phone</code> 和 <code>role</code>）。</p>
<h3>3. 扫码后的标签与接口</h3>
<p>设备码的 scene 是 <code>deviceNo=&lt;编码后的设备编号&gt;</code> 或 <code>d=&lt;设备短码&gt;</code>：前者解码后作为
<code>deviceNo</code>，后者作为 <code>deviceKey</code>，二者只传一个。扫码后先调用
<code>GET /api/clock/state?deviceNo=…</code>（或 <code>?deviceKey=…</code>），按返回的唯一标签显示按钮：</p>
<table><tr><th>标签</th><th>点击后调用</th></tr>
<tr><td>开始上班</td><td><code>POST /api/clock/start</code></td></tr>
<tr><td>换设备</td><td><code>POST /api/clock/switch-device</code></td></tr>
<tr><td>下班报工</td><td><code>POST /api/clock/finish</code>，然后 <code>GET /api/reports/draft?sessionId=…</code> 填写，<code>POST /api/reports</code> 提交</td></tr>
<tr><td>继续报工</td><td>不需要打卡操作：<code>GET /api/reports/draft?sessionId=…</code>，<code>POST /api/reports</code></td></tr>
<tr><td>重新报工</td><td><code>POST /api/clock/finish</code>（下班时间更新为现在，重新计时），然后 draft + submit</td></tr>
</table>
<p>打卡操作重复提交（双击、弱网重试）不会重复记录，回答与第一次相同。提交报工单后再扫码得到“开始上班”。</p>
<h3>4. 出错时</h3>
<p>错误回答统一为 <code>{"error": {"code", "message", "details"?, "requestId"}}</code>：<code>message</code> 是可以直接显示给用户的中文，
<code>code</code> 供程序判断（每个接口列出它可能返回的全部 code，包括请求头过大 431、请求超时 408 等在读取请求之前的拒绝），
<code>requestId</code> 在反馈问题时提供（每个错误回答都有，与响应头 <code>X-Request-Id</code> 相同）。不存在的路径或方法返回 404 <code>NOT_FOUND</code>。</p>
<ul>
<li><b>401</b>：未登录、令牌过期或角色已被移除，回到登录。</li>
<li><b>409</b> <code>CLOCK_STATE_CONFLICT</code>：操作与当前状态不符（例如另一台手机已操作），<code>details.label</code> 是此刻应显示的标签；
<code>REPORT_WINDOW_EXPIRED</code>：超过填写时限，请用户重新扫码并点“重新报工”；<code>REPORT_ALREADY_SUBMITTED</code>：<code>details.reportId</code> 是已提交的报工单。</li>
<li><b>422</b>：请求内容不符合要求，显示 <code>message</code>；<code>details</code> 指出字段或行。</li>
<li><b>429</b>：登录尝试过多，按响应头 <code>Retry-After</code>（秒，与 <code>details.retryAfterSeconds</code> 相同）等待后再试。</li>
<li><b>503</b>：数据库或微信服务暂时不可用，稍后重试（打卡操作重试是安全的）。</li>
</ul>
<h3>5. 开发环境的模拟器</h3>
<p>服务没有配置 <code>WX_APPID</code> 时使用内置的微信模拟器：登录 <code>code</code> 用 <code>sim:&lt;任意文字&gt;</code>（同一文字得到同一 openid），
<code>phoneCode</code> 用 <code>sim:&lt;11 位手机号&gt;</code>。凭证只能用一次，反复登录时加后缀 <code>#&lt;序号&gt;</code>，例如
<code>sim:13800138000#2</code>。生产环境（<code>NODE_ENV=production</code>）不能使用模拟器。</p>`;
