/**
 * The opening guide for the mini-program's developer, in Chinese: how to send the token, which
 * operation each scan label calls, the login steps, what to do on 401, 409, 429 and 503, and the simulator's
 * conventions, the plausibility flags a review page shows, and the subscription messages (which template
 * to ask for on which tap, one message per acceptance, the pages a message opens). It is the description of the OpenAPI
 * document (HTML, which OpenAPI's CommonMark allows) and the first section of `/api/docs`. The README's "For the
 * mini-program's developer" says the same in English.
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
<tr><td><code>ok</code></td><td>已登录：<code>token</code>、<code>expiresAt</code>、<code>person</code>、<code>role</code>、<code>roles</code>、<code>messageTemplates</code></td><td>保存令牌</td></tr>
<tr><td><code>choose_phone</code></td><td>微信给出多个已登记的手机号：<code>ticket</code>、<code>phones</code></td><td>让用户选手机号，<code>POST /api/auth/platform-login/complete {ticket, phone}</code></td></tr>
<tr><td><code>choose_role</code></td><td>该手机号有多个角色：<code>ticket</code>、<code>person</code>、<code>roles</code></td><td>让用户选角色，<code>POST /api/auth/platform-login/complete {ticket, role}</code></td></tr>
</table>
<p>登录票据 5 分钟内有效，只能用一次。选了手机号之后，如果这个手机号有多个角色，<code>/complete</code> 会再次回答
<code>choose_role</code>，并带一张新票据：用新票据再调用一次 <code>/complete {ticket, role}</code>（也可以第一次就同时提交
<code>phone</code> 和 <code>role</code>）。</p>
<p>订阅消息：<code>ok</code> 回答、<code>POST /api/auth/switch-role</code> 和 <code>GET /api/auth/me</code> 带 <code>messageTemplates</code>，
即工厂配置的订阅消息模板 ID：<code>reviewResult</code>（审核结果，发给员工）、<code>newReport</code>（新报工单待审核，发给管理员）；未配置的不出现，也就不必请求。
微信的订阅是一次性的：用户每同意一次 <code>wx.requestSubscribeMessage({tmplIds})</code>，服务才能给他发一条该模板的消息；这个调用只能在用户点击的处理函数里、任何
<code>await</code> 之前进行。参考实现在员工点“提交报工单”时请求 <code>reviewResult</code>，管理员点“审核报工单”“通过”“确认驳回”时请求 <code>newReport</code>，
无论同意与否操作都继续。没有订阅的消息不会送达（微信返回 43101，服务记为未送达、不重试，日志写明接收人）。消息打开的页面：审核结果
<code>pages/mine/detail?reportId=…</code>（读取 <code>GET /api/reports/mine?reportId=…</code>），新报工单 <code>pages/review/detail?reportId=…</code>
（读取 <code>GET /api/reports/{reportId}</code>）。模拟器同样要求订阅：开发时可向模拟器发送
<code>POST /sim/subscribe {"user": "sim:&lt;登录用的文字&gt;", "templateIds": […]}</code>，相当于用户点了“允许”。</p>
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
<p>参考实现：仓库中的 <code>miniprogram/</code> 是基于本接口的完整小程序。<code>wx.request</code> 不支持 PATCH：修改休息时间也可用 <code>POST /api/reports/{reportId}/break-minutes</code>（与 PATCH 相同）。</p>
<p>休息时间：员工当天所在班组有班次时，草稿的 <code>breakMinutes</code> 是班次中不带薪的休息时段与上下班时间重叠的分钟数（早于午休下班则不扣），<code>breakSource</code> 为 <code>shift</code>，<code>shift</code> 为所依据的班次；没有班次时为默认休息时间，<code>breakSource</code> 为 <code>default</code>。报工单各视图带 <code>breakSource</code>（经理修改后为 <code>manager</code>）和 <code>shiftName</code>。</p>
<h3>4. 出错时</h3>
<p>错误回答统一为 <code>{"error": {"code", "message", "details"?, "requestId"}}</code>：<code>message</code> 是可以直接显示给用户的中文，
<code>code</code> 供程序判断（每个接口列出它可能返回的全部 code，包括请求头过大 431、请求超时 408 等在读取请求之前的拒绝），
<code>requestId</code> 在反馈问题时提供（每个错误回答都有，与响应头 <code>X-Request-Id</code> 相同）。不存在的路径或方法返回 404 <code>NOT_FOUND</code>。</p>
<ul>
<li><b>401</b>：未登录、令牌过期或角色已被移除，回到登录。</li>
<li><b>409</b> <code>CLOCK_STATE_CONFLICT</code>：操作与当前状态不符（例如另一台手机已操作），<code>details.label</code> 是此刻应显示的标签；
<code>REPORT_WINDOW_EXPIRED</code>：超过填写时限，请用户重新扫码并点“重新报工”；<code>REPORT_ALREADY_SUBMITTED</code>：<code>details.reportId</code> 是已提交的报工单；
<code>PERIOD_CLOSED</code>（提交时）：报工日期所在月份刚刚结账（只在月末那一刻与结账同时发生），报工单仍在填写时限内，稍后重新提交即可。</li>
<li><b>422</b>：请求内容不符合要求，显示 <code>message</code>；<code>details</code> 指出字段或行。</li>
<li><b>429</b>：登录尝试过多，按响应头 <code>Retry-After</code>（秒，与 <code>details.retryAfterSeconds</code> 相同）等待后再试。</li>
<li><b>503</b>：数据库或微信服务暂时不可用，稍后重试（打卡操作重试是安全的）；<code>IMPORT_BUSY</code>（同时上传的 Excel 文件过多）带响应头 <code>Retry-After</code>（秒，与 <code>details.retryAfterSeconds</code> 相同），等待后重新上传。<code>READ_MODEL_BEHIND</code>（工资、看板、月份列表）：统计数据在限定时间内没有跟上刚才的操作，
按响应头 <code>Retry-After</code> 的秒数后重试；服务从不以旧数据回答这些读取。</li>
</ul>
<h3>5. 审核页：异常报工标记</h3>
<p>审核人看到的报工单（<code>GET /api/reviews/pending</code>、<code>GET /api/reports/:reportId</code>、通过与驳回的回答）都带
<code>flags</code>：报工单上不可能为真的数据，每项是 <code>{code, message, …数字}</code>，<code>message</code> 是带数字的中文句子
（例如“8 分钟报了 205 件，按标准节拍需要 102 分钟（…）”），请原样显示在审核按钮之上；空数组表示没有异常。
<code>GET /api/reviews/pending?flagged=true</code> 只列有标记的报工单。code 有：<code>NO_WORKING_TIME</code>（有效工作时间为 0 却有产出）、
<code>CYCLE_TOO_FAST</code>（实际节拍快于标准节拍的一半）、<code>OUTPUT_OVER_WORKLOAD</code>（产出超过这段时间标准工作量的 2 倍）、
<code>SESSION_TOO_LONG</code>（上班到下班超过最长上班时长减 1 小时）；界限以服务的配置为准。有标记的报工单仍可通过，审计记录会写明“已知异常”；
修正明细或修改休息时间后，回答中的 <code>flags</code> 按新的数量和时间重新判断。</p>
<h3>6. 我的工资</h3>
<p>员工的“我的工资”页调用 <code>GET /api/wages/mine?month=YYYY-MM</code>（不带 month 为本月，工厂时区）：<code>amount</code> 是该月已通过的报工单按报工日期当天的单价计算的计件工资（元，两位小数的文本，如 <code>"168.01"</code>），
<code>reports</code> 列出每张报工单和每行的成品、不良、<code>pieceRate</code>、<code>defectRate</code>（四位小数的文本）与 <code>amount</code>；
没有单价的行 <code>amount</code> 为 <code>null</code>，计入 <code>unpricedLines</code>。<code>status</code> 为 <code>closed</code> 时该月已结账，金额不再变化；
反结账后再次结账时 <code>previousAmount</code> 是上一次结账时的金额。
工资、看板与月份列表读到请求之前完成的一切操作：审核通过后立即打开“我的工资”，这张报工单已经计入；结账后立即导出，金额即结账的金额。</p>
<h3>7. 审核范围（管理员、经理）</h3>
<p>管理员和经理可以被限定在部分车间、班组（<code>PUT /api/people/{phone}/scope</code>，由经理设置）。范围外的报工单在待审核、报工单、看板和工资中都不出现；
单独打开或操作一张范围外的报工单得到 404 <code>REPORT_NOT_FOUND</code>（与不存在的报工单相同），页面按“没有这份报工单”处理即可。
任何人都不能审核或修改自己的报工单：403 <code>SELF_REVIEW</code>，请显示返回的中文提示（请其他管理员或经理处理）。</p>
<h3>8. 开发环境的模拟器</h3>
<p>服务没有配置 <code>WX_APPID</code> 时使用内置的微信模拟器：登录 <code>code</code> 用 <code>sim:&lt;任意文字&gt;</code>（同一文字得到同一 openid），
<code>phoneCode</code> 用 <code>sim:&lt;11 位手机号&gt;</code>。凭证只能用一次，反复登录时加后缀 <code>#&lt;序号&gt;</code>，例如
<code>sim:13800138000#2</code>。生产环境（<code>NODE_ENV=production</code>）不能使用模拟器。</p>`;
